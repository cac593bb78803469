import { Alert, Badge, Button, Card, Group, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import type { AcknowledgementRequestJson } from '#shared/schemas/acknowledgements.ts';

import { EmptyState } from '#web/components/empty-state.tsx';
import { PanelLoader } from '#web/components/panel-loader.tsx';
import { serverMessage } from '#web/lib/form-errors.ts';
import { paths } from '#web/lib/paths.ts';
import { useFormatDate } from '#web/lib/use-format-date.ts';

import { useAcknowledgementRequests } from '../api.ts';
import { audienceText, OwnerLine, percentOf } from './acknowledgement-parts.tsx';

function RequestCard({ request }: { request: AcknowledgementRequestJson }) {
  const { formatDate } = useFormatDate();
  const { t } = useTranslation(['acknowledgements', 'common']);
  const headingId = useId();
  const { document: doc, totals } = request;
  const percent = percentOf(totals.acknowledged, totals.audience);
  const progress = t('requests.progressValue', {
    acknowledged: totals.acknowledged,
    audience: totals.audience,
    percent,
  });
  return (
    <Card component="article" withBorder radius="md" padding="lg" aria-labelledby={headingId} h="100%">
      <Stack gap={6} h="100%">
        <Group gap="xs" wrap="wrap">
          <Title order={2} size="h4" id={headingId} style={{ overflowWrap: 'anywhere' }}>
            {doc.name}
          </Title>
          <Badge color="gray.8" variant="outline" radius="sm" tt="none">
            {t(`kinds.${doc.kind}`)}
          </Badge>
        </Group>
        <OwnerLine owner={doc.owner} />
        <Text size="sm">
          <Text span fw={600}>
            {t('requests.deadline')}:
          </Text>{' '}
          {formatDate(request.deadline)}
        </Text>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          <Text span fw={600}>
            {t('requests.audience')}:
          </Text>{' '}
          {audienceText(request.audience, t)}
        </Text>
        {request.onlyGroup && (
          <Text size="sm" c="gray.8">
            {t('requests.onlyGroup', { name: request.onlyGroup.name })}
          </Text>
        )}
        <Text size="sm" fw={600} mt={4}>
          {t('requests.progress')}: {progress}
        </Text>
        <Progress value={percent} color={percent === 100 ? 'green.9' : 'navy.7'} aria-label={progress} />
        <Group mt="auto" pt="xs">
          <Button
            component={Link}
            to={paths.acknowledgementRequest.to(request._id)}
            variant="light"
            aria-label={t('requests.viewLabel', { name: doc.name })}
          >
            {t('requests.view')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/**
 * Acknowledgement reports (decision 074): the notices and circulars asking for acknowledgement that this person
 * may report on — their own, their group's part as its head, or all as a director or administrator — each with how
 * many have acknowledged, newest first.
 */
export function RequestList() {
  const { t } = useTranslation('acknowledgements');
  const list = useAcknowledgementRequests();
  const requests = list.data?.pages.flat() ?? [];
  return (
    <Stack gap="md">
      <Text c="gray.9">{t('requests.intro')}</Text>
      <div aria-live="polite" aria-busy={list.isFetching}>
        {list.isPending ? (
          <PanelLoader />
        ) : list.isError ? (
          <Alert color="red" variant="light" role="alert">
            <Text c="gray.9">{serverMessage(list.error) || t('requests.failed')}</Text>
          </Alert>
        ) : requests.length === 0 ? (
          <EmptyState>{t('requests.empty')}</EmptyState>
        ) : null}
      </div>
      {requests.length > 0 && (
        <SimpleGrid component="ul" cols={{ base: 1, md: 2 }} spacing="md" p={0} m={0} style={{ listStyle: 'none' }}>
          {requests.map((request) => (
            <li key={request._id}>
              <RequestCard request={request} />
            </li>
          ))}
        </SimpleGrid>
      )}
      {list.hasNextPage && (
        <Group justify="center">
          <Button variant="default" onClick={() => void list.fetchNextPage()} loading={list.isFetchingNextPage}>
            {t('report.loadMore')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}
