import { Anchor, Avatar, Group, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

import type { GroupFileField, GroupJson } from '#shared/schemas/group.ts';

import { DataTable } from '#web/components/data-table.tsx';
import { EmptyState } from '#web/components/empty-state.tsx';
import { ItemListSection } from '#web/components/unit/unit-panels.tsx';

import { GroupItemEntry } from './group-parts.tsx';

/** A text of the group (About, History) as its paragraphs, or the empty text. */
export function GroupText({ text, empty }: { text: string; empty: string }) {
  const paragraphs = text
    .split(/\n\s*\n|\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  if (!paragraphs.length) return <EmptyState>{empty}</EmptyState>;
  return (
    <Stack gap="sm">
      {paragraphs.map((p, i) => (
        <Text key={i}>{p}</Text>
      ))}
    </Stack>
  );
}

/** Members: #, Name, Designation, Email; 'No team members found.' */
export function GroupMembersTable({ employees }: { employees: GroupJson['employees'] }) {
  const { t } = useTranslation('groups');
  if (!employees.length) return <EmptyState>{t('page.noMembers')}</EmptyState>;
  return (
    <DataTable
      caption={t('page.tabs.members')}
      minWidth={520}
      headers={['#', t('fields.name'), t('fields.designation'), t('fields.email')]}
    >
      {employees.map((e, i) => (
        <Table.Tr key={e._id}>
          <Table.Td>{i + 1}</Table.Td>
          <Table.Td>
            <Group gap="sm" wrap="nowrap">
              <Avatar src={e.photo} alt="" radius="xl" size="sm" color="navy" aria-hidden="true">
                {e.name.slice(0, 1)}
              </Avatar>
              <Text span>{e.name}</Text>
            </Group>
          </Table.Td>
          <Table.Td>{e.designation}</Table.Td>
          <Table.Td>
            <Anchor href={`mailto:${e.email}`}>{e.email}</Anchor>
          </Table.Td>
        </Table.Tr>
      ))}
    </DataTable>
  );
}

/** Notices & Circular: two sections, each entry a link to its file with its description. */
export function GroupDocuments({ group }: { group: GroupJson }) {
  const { t } = useTranslation('groups');
  return (
    <Stack gap="xl">
      <ItemListSection
        id="group-notices-heading"
        title={t('page.notices')}
        items={group.notices}
        empty={t('page.noNotices')}
      >
        {(item) => <GroupItemEntry item={item} />}
      </ItemListSection>
      <ItemListSection
        id="group-circulars-heading"
        title={t('page.circulars')}
        items={group.circulars}
        empty={t('page.noCirculars')}
      >
        {(item) => <GroupItemEntry item={item} />}
      </ItemListSection>
    </Stack>
  );
}

/** The spec's order for Product & Advertisement (technologies, patents, publications, projects), then courses. */
const PRODUCT_ORDER = [
  'technologies',
  'patents',
  'publications',
  'projects',
  'courses',
] as const satisfies readonly GroupFileField[];
const EMPTY_KEY = {
  projects: 'lists.emptyProjects',
  patents: 'lists.emptyPatents',
  technologies: 'lists.emptyTechnologies',
  courses: 'lists.emptyCourses',
  publications: 'lists.emptyPublications',
} as const;

/** Product & Advertisement: the group's technologies, patents, publications, projects and courses. */
export function GroupProducts({ group }: { group: GroupJson }) {
  const { t } = useTranslation('groups');
  return (
    <Stack gap="xl">
      {PRODUCT_ORDER.map((field) => (
        <ItemListSection
          key={field}
          id={`group-${field}-heading`}
          title={t(`lists.${field}`)}
          items={group[field]}
          empty={t(EMPTY_KEY[field])}
        >
          {(item) => <GroupItemEntry item={item} />}
        </ItemListSection>
      ))}
    </Stack>
  );
}
