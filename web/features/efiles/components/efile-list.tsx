import { Anchor, Card, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import type { EfileSummaryJson } from '#shared/schemas/efile.ts';

import { EmptyState } from '#web/components/empty-state.tsx';
import { PanelError } from '#web/components/panel-error.tsx';
import { PanelLoader } from '#web/components/panel-loader.tsx';
import { serverMessage } from '#web/lib/form-errors.ts';
import { paths } from '#web/lib/paths.ts';
import { useFormatDate } from '#web/lib/use-format-date.ts';

import { EfileClassification, EfileState } from './efile-parts.tsx';

function EfileRow({ file }: { file: EfileSummaryJson }) {
  const { t } = useTranslation('efiles');
  const { formatDateTime } = useFormatDate();
  return (
    <Card component="li" withBorder radius="md" padding="md">
      <Stack gap={4}>
        <Anchor component={Link} to={paths.efile.to(file._id)} fw={700} style={{ overflowWrap: 'anywhere' }}>
          {file.number}
        </Anchor>
        <Text style={{ overflowWrap: 'anywhere' }}>{file.subject}</Text>
        <Group gap={6}>
          <EfileState file={file} />
          <EfileClassification classification={file.classification} />
        </Group>
        <Text size="sm" c="gray.8">
          {t('list.with', { name: file.holder.name, when: formatDateTime(file.movedAt) })}
        </Text>
      </Stack>
    </Card>
  );
}

/** A list of files (a box of My files, or the search's answer). */
export function EfileList({
  query,
  empty,
}: {
  query: { isPending: boolean; isError: boolean; error: unknown; data?: EfileSummaryJson[] };
  empty: string;
}) {
  const { t } = useTranslation('efiles');
  if (query.isPending) return <PanelLoader />;
  if (query.isError) return <PanelError>{serverMessage(query.error, t('failed'))}</PanelError>;
  if (!query.data?.length) return <EmptyState>{empty}</EmptyState>;
  return (
    <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
      {query.data.map((file) => (
        <EfileRow key={file._id} file={file} />
      ))}
    </Stack>
  );
}
