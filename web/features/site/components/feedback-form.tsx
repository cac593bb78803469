import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { FEEDBACK_CATEGORIES, type FeedbackInput, feedbackInput } from '#shared/schemas/site.ts';

import { applyServerError, serverMessage, translatedErrors, zodValidate } from '#web/lib/form-errors.ts';
import { useFormatDate } from '#web/lib/use-format-date.ts';

import { useMyFeedback, useSendFeedback } from '../api.ts';

/**
 * The Feedback form for staff and visitors alike (decision 019): checked by the same schema as the server; a signed-in
 * person's name and email are filled in. On success the form empties and says it was sent.
 */
export function FeedbackForm({ defaults }: { defaults: { name: string; email: string } }) {
  const { t } = useTranslation('site');
  const send = useSendFeedback();
  const [banner, setBanner] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);
  const initialValues: FeedbackInput = { ...defaults, category: 'question', subject: '', message: '' };
  const form = useForm<FeedbackInput>({
    mode: 'controlled',
    initialValues,
    validate: zodValidate(feedbackInput),
  });
  const { error } = translatedErrors(form);
  const onSubmit = (values: FeedbackInput) => {
    setBanner(null);
    send.mutate(values, {
      onSuccess: () => {
        form.setValues({ ...initialValues });
        setBanner({ kind: 'success', text: t('feedback.sent') });
      },
      onError: (err) => {
        if (applyServerError(form, err)) return;
        setBanner({ kind: 'error', text: serverMessage(err, t('feedback.failed')) });
      },
    });
  };
  return (
    <form onSubmit={form.onSubmit(onSubmit)} noValidate>
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <TextInput
            label={t('feedback.name')}
            autoComplete="name"
            required
            {...form.getInputProps('name')}
            error={error('name')}
          />
          <TextInput
            label={t('feedback.email')}
            type="email"
            autoComplete="email"
            required
            {...form.getInputProps('email')}
            error={error('email')}
          />
        </SimpleGrid>
        <Select
          label={t('feedback.category')}
          data={FEEDBACK_CATEGORIES.map((c) => ({ value: c, label: t(`feedback.categories.${c}`) }))}
          allowDeselect={false}
          required
          {...form.getInputProps('category')}
          error={error('category')}
        />
        <TextInput label={t('feedback.subject')} required {...form.getInputProps('subject')} error={error('subject')} />
        <Textarea
          label={t('feedback.message')}
          autosize
          minRows={5}
          maxRows={14}
          required
          {...form.getInputProps('message')}
          error={error('message')}
        />
        {banner && (
          <Alert
            color={banner.kind === 'success' ? 'green' : 'red'}
            variant="light"
            role={banner.kind === 'success' ? 'status' : 'alert'}
          >
            <Text c="gray.9">{banner.text}</Text>
          </Alert>
        )}
        <Group>
          <Button type="submit" loading={send.isPending}>
            {t('feedback.send')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The feedback a signed-in person sent earlier, with the administrators' replies. */
export function MyFeedback() {
  const { formatDate, formatDateTime } = useFormatDate();
  const { t } = useTranslation('site');
  const mine = useMyFeedback(true);
  if (!mine.data?.length) return null;
  return (
    <Stack gap="sm" mt="xl">
      <Title order={2} size="h3">
        {t('feedback.mine')}
      </Title>
      {mine.data.map((f) => (
        <Card key={f._id} withBorder radius="md" padding="md">
          <Group justify="space-between" align="flex-start" gap="xs">
            <Text fw={700}>{f.subject}</Text>
            <Badge color={f.status === 'new' ? 'gray.7' : f.status === 'answered' ? 'teal.9' : 'navy'}>
              {t(`admin.statuses.${f.status}`)}
            </Badge>
          </Group>
          <Text size="sm" c="gray.8">
            {t('feedback.sentOn', { date: formatDateTime(f.createdAt) })}
          </Text>
          <Text mt="xs" style={{ whiteSpace: 'pre-line' }}>
            {f.message}
          </Text>
          {f.reply ? (
            <Alert color="blue" variant="light" mt="sm" title={t('feedback.reply')}>
              <Text c="gray.9" style={{ whiteSpace: 'pre-line' }}>
                {f.reply}
              </Text>
              {f.repliedAt && (
                <Text size="sm" c="gray.8" mt={4}>
                  {t('feedback.repliedOn', { name: f.repliedBy?.name ?? '', date: formatDate(f.repliedAt) })}
                </Text>
              )}
            </Alert>
          ) : (
            <Text size="sm" c="gray.8" mt="xs">
              {t('feedback.noReplyYet')}
            </Text>
          )}
        </Card>
      ))}
    </Stack>
  );
}
