import { Anchor, Badge, Group, List, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import type { LabItemJson, LabJson } from '#shared/schemas/lab.ts';

import { EmptyState } from '#web/components/empty-state.tsx';
import { FileTitle } from '#web/components/new-tab-link.tsx';
import { ItemListSection } from '#web/components/unit/unit-panels.tsx';
import { paths } from '#web/lib/paths.ts';
import { useFormatDate } from '#web/lib/use-format-date.ts';

import { splitIntoPoints } from '../text-points.ts';

/** About Lab and Lab History: bullet points split at line breaks and sentence ends; 'No description available.' */
export function TextPoints({ text }: { text: string }) {
  const { t } = useTranslation('lab');
  const points = splitIntoPoints(text);
  if (!points.length) return <EmptyState>{t('home.noDescription')}</EmptyState>;
  return (
    <List spacing="xs" withPadding>
      {points.map((point, i) => (
        <List.Item key={i}>{point}</List.Item>
      ))}
    </List>
  );
}

/** One notice or circular: a link to its file (new tab) with its description, date and, once expired, 'Archived'. */
export function DocumentEntry({ item }: { item: LabItemJson }) {
  const { formatDate } = useFormatDate();
  const { t } = useTranslation(['lab', 'site']);
  return (
    <Stack gap={2}>
      <Group gap="xs" wrap="wrap">
        <FileTitle name={item.name} fileUrl={item.fileUrl} />
        {item.expired && (
          <Badge color="gray.7" variant="filled" size="sm">
            {t('home.archived')}
          </Badge>
        )}
      </Group>
      {item.description && <Text size="sm">{item.description}</Text>}
      <Text size="xs" c="gray.7">
        {t('home.posted', { date: formatDate(item.createdAt) })}
        {item.validUntil ? ` · ${t('home.validUntil', { date: formatDate(item.validUntil) })}` : ''}
        {` · ${t('site:lastUpdated', { date: formatDate(item.updatedAt) })}`}
      </Text>
    </Stack>
  );
}

/** Notices & Circular: two sections, each entry a link to its file; expired ones stay, marked archived. */
export function LabDocuments({ lab }: { lab: LabJson }) {
  const { t } = useTranslation(['lab', 'site']);
  return (
    <Stack gap="xl">
      <Anchor component={Link} to={paths.archive} fw={600}>
        {t('site:archive.linkLong')}
      </Anchor>
      <ItemListSection
        id="lab-notices-heading"
        title={t('home.notices')}
        items={lab.notices}
        empty={t('home.noNotices')}
      >
        {(item) => <DocumentEntry item={item} />}
      </ItemListSection>
      <ItemListSection
        id="lab-circulars-heading"
        title={t('home.circulars')}
        items={lab.circulars}
        empty={t('home.noCirculars')}
      >
        {(item) => <DocumentEntry item={item} />}
      </ItemListSection>
    </Stack>
  );
}

/** "Last updated: 21 Nov 2026" under each of the lab's public tabs (decision 019; GIGW 3.0). */
export function LastUpdated({ date }: { date: string }) {
  const { formatDate } = useFormatDate();
  const { t } = useTranslation('site');
  return (
    <Text size="sm" c="gray.8" mt="lg">
      {t('lastUpdated', { date: formatDate(date) })}
    </Text>
  );
}
