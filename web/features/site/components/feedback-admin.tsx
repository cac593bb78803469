import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  SegmentedControl,
  Select,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { DEFAULT_PAGE_SIZE } from '#shared/constants.ts';
import { FEEDBACK_STATUSES, type FeedbackJson, type FeedbackStatus } from '#shared/schemas/site.ts';

import { PanelLoader } from '#web/components/panel-loader.tsx';
import { ApiError } from '#web/lib/api-client.ts';
import { serverMessage } from '#web/lib/form-errors.ts';
import { useFormatDate } from '#web/lib/use-format-date.ts';

import { useAnswerFeedback, useFeedbackList } from '../api.ts';

const STATUS_COLOR: Record<FeedbackStatus, string> = { new: 'red.9', answered: 'teal.9', closed: 'gray.7' };

/** One message with its status and reply, which the admin changes and saves. */
function FeedbackCard({ item }: { item: FeedbackJson }) {
  const { formatDateTime } = useFormatDate();
  const { t } = useTranslation('site');
  const answer = useAnswerFeedback();
  const [status, setStatus] = useState<FeedbackStatus>(item.status === 'new' ? 'answered' : item.status);
  const [reply, setReply] = useState(item.reply);
  const [replyError, setReplyError] = useState<string | null>(null);
  const headingId = `feedback-${item._id}`;
  const save = () => {
    setReplyError(null);
    answer.mutate(
      { id: item._id, status, reply },
      {
        onSuccess: () => notifications.show({ color: 'green', message: t('admin.saved') }),
        onError: (err) => {
          if (err instanceof ApiError && err.field === 'reply') return setReplyError(serverMessage(err));
          notifications.show({ color: 'red', message: t('admin.saveFailed') });
        },
      },
    );
  };
  return (
    <Card withBorder radius="md" padding="md" component="article" aria-labelledby={headingId}>
      <Group justify="space-between" align="flex-start" gap="xs">
        <Title order={2} size="h4" id={headingId}>
          {item.subject}
        </Title>
        <Group gap={6}>
          <Badge variant="outline" color="navy">
            {t(`feedback.categories.${item.category}`)}
          </Badge>
          <Badge color={STATUS_COLOR[item.status]}>{t(`admin.statuses.${item.status}`)}</Badge>
        </Group>
      </Group>
      <Text size="sm" c="gray.8">
        {t('admin.from')}: {item.name} (
        <Anchor href={`mailto:${item.email}`} td="underline">
          {item.email}
        </Anchor>
        ) · {item.user ? t('admin.staff', { name: item.user.name }) : t('admin.visitor')} · {t('admin.received')}{' '}
        {formatDateTime(item.createdAt)}
      </Text>
      <Text mt="sm" style={{ whiteSpace: 'pre-line' }}>
        {item.message}
      </Text>
      <Stack gap="sm" mt="md">
        <Textarea
          label={t('admin.reply')}
          autosize
          minRows={2}
          maxRows={10}
          value={reply}
          onChange={(e) => setReply(e.currentTarget.value)}
          error={replyError}
        />
        <Group align="flex-end">
          <Select
            label={t('admin.status')}
            data={FEEDBACK_STATUSES.map((s) => ({ value: s, label: t(`admin.statuses.${s}`) }))}
            value={status}
            onChange={(v) => v && setStatus(v as FeedbackStatus)}
            allowDeselect={false}
            w={180}
          />
          <Button onClick={save} loading={answer.isPending}>
            {t('admin.save')}
          </Button>
        </Group>
        {item.repliedAt && item.repliedBy && (
          <Text size="sm" c="gray.8">
            {t('feedback.repliedOn', { name: item.repliedBy.name, date: formatDateTime(item.repliedAt) })}
          </Text>
        )}
      </Stack>
    </Card>
  );
}

/** The admin's Feedback screen (decision 019): every message, newest first, filtered by status, a page at a time. */
export function FeedbackAdmin() {
  const { t } = useTranslation('site');
  const [status, setStatus] = useState<FeedbackStatus | 'all'>('new');
  const [offset, setOffset] = useState(0);
  const list = useFeedbackList(status === 'all' ? null : status, offset, DEFAULT_PAGE_SIZE);
  return (
    <Stack gap="md">
      <SegmentedControl
        aria-label={t('admin.filter')}
        value={status}
        onChange={(v) => {
          setStatus(v as FeedbackStatus | 'all');
          setOffset(0);
        }}
        data={[
          { value: 'new', label: t('admin.statuses.new') },
          { value: 'answered', label: t('admin.statuses.answered') },
          { value: 'closed', label: t('admin.statuses.closed') },
          { value: 'all', label: t('admin.all') },
        ]}
        style={{ alignSelf: 'flex-start' }}
      />
      {list.isPending ? (
        <PanelLoader />
      ) : list.isError ? (
        <Alert color="red" variant="light" role="alert">
          <Text c="gray.9">{t('admin.loadFailed')}</Text>
        </Alert>
      ) : list.data.items.length === 0 ? (
        <Text c="gray.8">{t('admin.empty')}</Text>
      ) : (
        <>
          <Text size="sm" c="gray.8" aria-live="polite">
            {t('admin.total', { count: list.data.total })}
          </Text>
          {list.data.items.map((item) => (
            <FeedbackCard key={`${item._id}-${item.status}-${item.reply}`} item={item} />
          ))}
          {list.data.total > DEFAULT_PAGE_SIZE && (
            <Group>
              <Button
                variant="default"
                disabled={offset === 0}
                onClick={() => setOffset(Math.max(0, offset - DEFAULT_PAGE_SIZE))}
              >
                {t('admin.previous')}
              </Button>
              <Button
                variant="default"
                disabled={offset + DEFAULT_PAGE_SIZE >= list.data.total}
                onClick={() => setOffset(offset + DEFAULT_PAGE_SIZE)}
              >
                {t('admin.next')}
              </Button>
            </Group>
          )}
        </>
      )}
    </Stack>
  );
}
