import { Alert, Anchor, Badge, Card, Group, SegmentedControl, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { ArchiveItemJson } from '#shared/schemas/site.ts';

import { PanelLoader } from '#web/components/panel-loader.tsx';
import { useFormatDate } from '#web/lib/use-format-date.ts';

import { useArchive } from '../api.ts';

function ArchiveItem({ item }: { item: ArchiveItemJson }) {
  const { formatDate } = useFormatDate();
  const { t } = useTranslation(['site', 'common']);
  return (
    <li>
      <Group gap="xs" wrap="wrap" align="baseline">
        <Badge variant="light" color={item.kind === 'notice' ? 'navy' : 'grape.9'}>
          {t(`archive.${item.kind}`)}
        </Badge>
        {item.fileUrl ? (
          <Anchor href={item.fileUrl} target="_blank" rel="noopener noreferrer" fw={600}>
            {item.name}
            <VisuallyHidden>{t('common:opensInNewTab')}</VisuallyHidden>
          </Anchor>
        ) : (
          <Text fw={600}>{item.name}</Text>
        )}
      </Group>
      {item.description && <Text size="sm">{item.description}</Text>}
      <Text size="sm" c="gray.8">
        {item.source.type === 'lab' ? t('archive.labSource') : t('archive.groupSource', { name: item.source.name })} ·{' '}
        {t('archive.validUntil', { date: formatDate(item.validUntil) })} ·{' '}
        {t('lastUpdated', { date: formatDate(item.updatedAt) })}
      </Text>
    </li>
  );
}

/**
 * The Archive (decision 019): expired notices and circulars, the lab's and those of groups the person may see,
 * under a heading per year they expired, newest first.
 */
export function ArchiveList({ signedIn }: { signedIn: boolean }) {
  const { t } = useTranslation('site');
  const archive = useArchive(signedIn);
  const [kind, setKind] = useState<'all' | 'notice' | 'circular'>('all');
  if (archive.isPending) return <PanelLoader />;
  if (archive.isError)
    return (
      <Alert color="red" variant="light" role="alert">
        <Text c="gray.9">{t('archive.loadFailed')}</Text>
      </Alert>
    );
  const years = archive.data.years
    .map((y) => ({ ...y, items: y.items.filter((i) => kind === 'all' || i.kind === kind) }))
    .filter((y) => y.items.length);
  return (
    <Stack gap="lg">
      <SegmentedControl
        aria-label={t('archive.kindFilter')}
        value={kind}
        onChange={(v) => setKind(v as typeof kind)}
        data={[
          { value: 'all', label: t('archive.allKinds') },
          { value: 'notice', label: t('archive.notices') },
          { value: 'circular', label: t('archive.circulars') },
        ]}
        style={{ alignSelf: 'flex-start' }}
      />
      {years.length === 0 ? (
        <Text c="gray.8">{t('archive.empty')}</Text>
      ) : (
        years.map((y) => (
          <Card key={y.year} withBorder radius="md" padding="md" component="section" aria-labelledby={`year-${y.year}`}>
            <Title order={2} size="h3" id={`year-${y.year}`} mb="sm">
              {t('archive.year', { year: y.year, count: y.items.length })}
            </Title>
            <Stack component="ul" gap="md" m={0} p={0} style={{ listStyle: 'none' }}>
              {y.items.map((item) => (
                <ArchiveItem key={item._id} item={item} />
              ))}
            </Stack>
          </Card>
        ))
      )}
    </Stack>
  );
}
