import { Alert, Button, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';

import type { OcrCountsJson } from '#shared/schemas/ocr.ts';

import { DataTable } from '#web/components/data-table.tsx';
import { PanelLoader } from '#web/components/panel-loader.tsx';
import { api } from '#web/lib/api-client.ts';
import { serverMessage } from '#web/lib/form-errors.ts';
import { useFormatDate } from '#web/lib/use-format-date.ts';

const ocrKey = ['admin', 'ocr'] as const;

/** A figure of the page: its number, large, over its label. */
function Figure({ label, value }: { label: string; value: number }) {
  return (
    <Paper withBorder p="md" radius="md">
      <Text size="sm" c="gray.8">
        {label}
      </Text>
      <Text fz="xl" fw={700}>
        {value}
      </Text>
    </Paper>
  );
}

/**
 * The admin's view of text recognition (decision 113): how many scans wait and how many were not recognised, the
 * newest of these with the reason (in the reader's language, by its code), and "Retry the failed files", which
 * queues them all again (GET /api/admin/ocr, POST /api/admin/ocr/retry).
 */
export function OcrAdmin() {
  const { t } = useTranslation('site');
  const { t: tc } = useTranslation('common');
  const { formatDateTime } = useFormatDate();
  const queryClient = useQueryClient();
  const state = useQuery({
    queryKey: ocrKey,
    queryFn: ({ signal }) => api.get<OcrCountsJson>('/api/admin/ocr', { signal }),
  });
  const retry = useMutation({
    mutationFn: () => api.post<{ queued: number }>('/api/admin/ocr/retry'),
    onSuccess: ({ queued }) => {
      notifications.show({ color: 'green', message: t('ocr.retried', { count: queued }) });
      return queryClient.invalidateQueries({ queryKey: ocrKey });
    },
    onError: (err) => notifications.show({ color: 'red', message: serverMessage(err) || t('ocr.retryFailed') }),
  });

  if (state.isError) return <Alert color="red">{t('ocr.loadFailed')}</Alert>;
  if (!state.data) return <PanelLoader />;
  const { waiting, failed, failedFiles } = state.data;
  return (
    <Stack gap="md">
      <Text c="gray.8">{t('ocr.intro')}</Text>
      <SimpleGrid cols={{ base: 2, sm: 3 }} role="group" aria-label={t('ocr.figures')}>
        <Figure label={t('ocr.waitingLabel')} value={waiting} />
        <Figure label={t('ocr.failedLabel')} value={failed} />
      </SimpleGrid>
      <Group justify="space-between" align="center">
        <Title order={2} size="h4">
          {t('ocr.listTitle')}
        </Title>
        <Button onClick={() => retry.mutate()} loading={retry.isPending} disabled={failed === 0}>
          {t('ocr.retry')}
        </Button>
      </Group>
      {failedFiles.length === 0 ? (
        <Text c="gray.8">{t('ocr.none')}</Text>
      ) : (
        <>
          <DataTable
            caption={t('ocr.listTitle')}
            headers={[t('ocr.file'), t('ocr.uploadedAs'), t('ocr.reason'), t('ocr.when')]}
            minWidth={640}
          >
            {failedFiles.map((f) => (
              <Table.Tr key={f.fileId}>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{f.name}</Table.Td>
                <Table.Td>{t(`ocr.areas.${f.area}`, { defaultValue: f.area })}</Table.Td>
                <Table.Td>{tc(`viewer.textReason_${f.reason}`)}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(f.at)}</Table.Td>
              </Table.Tr>
            ))}
          </DataTable>
          {failed > failedFiles.length && (
            <Text size="sm" c="gray.8">
              {t('ocr.listed', { shown: failedFiles.length, count: failed })}
            </Text>
          )}
        </>
      )}
    </Stack>
  );
}
