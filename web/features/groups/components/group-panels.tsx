import {
  Anchor,
  Avatar,
  Card,
  Group,
  List,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDate } from '#shared/format.ts';
import type { GroupFileField, GroupItemJson, GroupJson } from '#shared/schemas/group.ts';
import type { DirectorEntryJson } from '#shared/schemas/unit.ts';
import { EmptyState } from '#web/components/empty-state.tsx';
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

/** Vision and Mission: two cards. */
export function GroupVisionMission({ group }: { group: GroupJson }) {
  const { t } = useTranslation('groups');
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      {(['vision', 'mission'] as const).map((key) => (
        <Card key={key} withBorder padding="lg" radius="md">
          <Title order={3} size="h4" mb="xs">
            {t(`fields.${key}`)}
          </Title>
          <Text style={{ whiteSpace: 'pre-line' }}>{group[key] || t('page.noInformation')}</Text>
        </Card>
      ))}
    </SimpleGrid>
  );
}

/** The picture of an entry: its own image, else the linked user's photo. */
export const entryPhoto = (entry: DirectorEntryJson) => entry.image ?? entry.user?.photo ?? null;

/** Group Leader Profile: the current associate director's photo, name, designation and about. */
export function GroupLeaderProfile({ leader }: { leader: DirectorEntryJson | null }) {
  const { t } = useTranslation('groups');
  if (!leader) return <EmptyState>{t('page.noInformation')}</EmptyState>;
  const about = leader.about || leader.user?.about || '';
  return (
    <Card withBorder padding="lg" radius="md">
      <Group align="flex-start" wrap="wrap" gap="lg">
        <Avatar src={entryPhoto(leader)} alt={leader.name} size={160} radius="md" color="navy">
          {leader.name.slice(0, 1)}
        </Avatar>
        <Stack gap={4} style={{ flex: '1 1 16rem' }}>
          <Title order={3} size="h3">
            {leader.name}
          </Title>
          <Text fw={600} c="navy.8">
            {leader.designation}
          </Text>
          <Text size="sm" c="gray.7">
            {t('page.inOfficeSince', { date: formatDate(leader.from) })}
          </Text>
          <Text mt="sm" style={{ whiteSpace: 'pre-line' }}>
            {about || t('page.noInformation')}
          </Text>
        </Stack>
      </Group>
    </Card>
  );
}

/** O/o Group Leader: Name, Designation, Contact Number, Email. */
export function GroupOfficeTable({ office }: { office: GroupJson['officeOfGroup'] }) {
  const { t } = useTranslation('groups');
  if (!office.length) return <EmptyState>{t('page.noOffice')}</EmptyState>;
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table striped withTableBorder>
        <VisuallyHidden component="caption">{t('page.tabs.office')}</VisuallyHidden>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('fields.name')}</Table.Th>
            <Table.Th scope="col">{t('fields.designation')}</Table.Th>
            <Table.Th scope="col">{t('fields.contactNumber')}</Table.Th>
            <Table.Th scope="col">{t('fields.email')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {office.map((m) => (
            <Table.Tr key={m._id}>
              <Table.Td>{m.name}</Table.Td>
              <Table.Td>{m.designation}</Table.Td>
              <Table.Td>{m.contactNumber}</Table.Td>
              <Table.Td>{m.email ? <Anchor href={`mailto:${m.email}`}>{m.email}</Anchor> : null}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Role & Honour: the associate-director history, #, Name, From, To ('Present' while open). */
export function GroupHistoryTable({ history }: { history: DirectorEntryJson[] }) {
  const { t } = useTranslation('groups');
  if (!history.length) return <EmptyState>{t('page.noData')}</EmptyState>;
  return (
    <Table.ScrollContainer minWidth={480}>
      <Table striped withTableBorder>
        <VisuallyHidden component="caption">{t('page.tabs.roleHonour')}</VisuallyHidden>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">#</Table.Th>
            <Table.Th scope="col">{t('fields.name')}</Table.Th>
            <Table.Th scope="col">{t('fields.from')}</Table.Th>
            <Table.Th scope="col">{t('fields.to')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {history.map((d, i) => (
            <Table.Tr key={d._id}>
              <Table.Td>{i + 1}</Table.Td>
              <Table.Td>
                {d.name}
                <Text span size="sm" c="gray.7" display="block">
                  {d.designation}
                </Text>
              </Table.Td>
              <Table.Td>{formatDate(d.from)}</Table.Td>
              <Table.Td>{d.to ? formatDate(d.to) : t('present')}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Members: #, Name, Designation, Email; 'No team members found.' */
export function GroupMembersTable({ employees }: { employees: GroupJson['employees'] }) {
  const { t } = useTranslation('groups');
  if (!employees.length) return <EmptyState>{t('page.noMembers')}</EmptyState>;
  return (
    <Table.ScrollContainer minWidth={520}>
      <Table striped withTableBorder>
        <VisuallyHidden component="caption">{t('page.tabs.members')}</VisuallyHidden>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">#</Table.Th>
            <Table.Th scope="col">{t('fields.name')}</Table.Th>
            <Table.Th scope="col">{t('fields.designation')}</Table.Th>
            <Table.Th scope="col">{t('fields.email')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
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
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** A titled list of items (notices, circulars, a file kind) or its empty text. */
export function ItemSection({
  id,
  title,
  items,
  empty,
}: {
  id: string;
  title: string;
  items: GroupItemJson[];
  empty: string;
}) {
  return (
    <section aria-labelledby={id}>
      <Title order={3} size="h4" mb="sm" id={id}>
        {title}
      </Title>
      {items.length ? (
        <Stack component="ul" gap="md" p={0} m={0} style={{ listStyle: 'none' }}>
          {items.map((item) => (
            <li key={item._id}>
              <GroupItemEntry item={item} />
            </li>
          ))}
        </Stack>
      ) : (
        <EmptyState>{empty}</EmptyState>
      )}
    </section>
  );
}

/** Notices & Circular: two sections, each entry a link to its file with its description. */
export function GroupDocuments({ group }: { group: GroupJson }) {
  const { t } = useTranslation('groups');
  return (
    <Stack gap="xl">
      <ItemSection
        id="group-notices-heading"
        title={t('page.notices')}
        items={group.notices}
        empty={t('page.noNotices')}
      />
      <ItemSection
        id="group-circulars-heading"
        title={t('page.circulars')}
        items={group.circulars}
        empty={t('page.noCirculars')}
      />
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
        <ItemSection
          key={field}
          id={`group-${field}-heading`}
          title={t(`lists.${field}`)}
          items={group[field]}
          empty={t(EMPTY_KEY[field])}
        />
      ))}
    </Stack>
  );
}

/** Contact Us: a list of type (label): value. */
export function GroupContacts({ contacts }: { contacts: GroupJson['contactInfo'] }) {
  const { t } = useTranslation('groups');
  if (!contacts.length) return <EmptyState>{t('page.noContact')}</EmptyState>;
  return (
    <List spacing="xs">
      {contacts.map((c) => (
        <List.Item key={c._id}>
          <Text span fw={600}>
            {t(`contactTypes.${c.type}`)}
            {c.label ? ` (${c.label})` : ''}:
          </Text>{' '}
          {c.type === 'Email' ? (
            <Anchor href={`mailto:${c.value}`} underline="always">
              {c.value}
            </Anchor>
          ) : (
            <Text span>{c.value}</Text>
          )}
        </List.Item>
      ))}
    </List>
  );
}
