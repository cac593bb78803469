import type { ReactNode } from 'react';
import {
  Alert,
  Anchor,
  Avatar,
  Badge,
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
import type { LabItemJson, LabJson } from '#shared/schemas/lab.ts';
import type { DirectorEntryJson } from '#shared/schemas/unit.ts';
import { EmptyState } from '#web/components/empty-state.tsx';
import { splitIntoPoints } from '../text-points.ts';

/** A panel's failure, in the words spec §8 gives that panel. */
export function PanelError({ children }: { children: ReactNode }) {
  return (
    <Alert color="red" variant="light" role="alert">
      <Text c="gray.9">{children}</Text>
    </Alert>
  );
}

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

/** Vision and Mission: two cards. */
export function VisionMission({ lab }: { lab: LabJson }) {
  const { t } = useTranslation('lab');
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      {(['vision', 'mission'] as const).map((key) => (
        <Card key={key} withBorder padding="lg" radius="md">
          <Title order={3} size="h4" mb="xs">
            {t(`home.${key}`)}
          </Title>
          <Text style={{ whiteSpace: 'pre-line' }}>{lab[key] || t('home.noInformation')}</Text>
        </Card>
      ))}
    </SimpleGrid>
  );
}

/** The picture of a director entry: its own image, else the linked user's photo. */
export const directorPhoto = (entry: DirectorEntryJson) => entry.image ?? entry.user?.photo ?? null;

/** Director Profile: the current director's photo, name and about; 'No information provided yet.' */
export function DirectorProfile({ director }: { director: DirectorEntryJson | null }) {
  const { t } = useTranslation('lab');
  if (!director) return <EmptyState>{t('home.noInformation')}</EmptyState>;
  const about = director.about || director.user?.about || '';
  return (
    <Card withBorder padding="lg" radius="md">
      <Group align="flex-start" wrap="wrap" gap="lg">
        <Avatar src={directorPhoto(director)} alt={director.name} size={160} radius="md" color="navy">
          {director.name.slice(0, 1)}
        </Avatar>
        <Stack gap={4} style={{ flex: '1 1 16rem' }}>
          <Title order={3} size="h3">
            {director.name}
          </Title>
          <Text fw={600} c="navy.8">
            {director.designation}
          </Text>
          <Text size="sm" c="gray.7">
            {t('home.inOfficeSince', { date: formatDate(director.from) })}
          </Text>
          <Text mt="sm" style={{ whiteSpace: 'pre-line' }}>
            {about || t('home.noInformation')}
          </Text>
        </Stack>
      </Group>
    </Card>
  );
}

/** O/o Director: Name, Designation, Contact Number, Email; 'No director office data available.' */
export function OfficeTable({ office }: { office: LabJson['officeOfDirector'] }) {
  const { t } = useTranslation('lab');
  if (!office.length) return <EmptyState>{t('home.noOffice')}</EmptyState>;
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table striped withTableBorder>
        <VisuallyHidden component="caption">{t('tabs.office')}</VisuallyHidden>
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

/** Role & Honour: #, Name, From, To ('Present' when open); 'No data available'. */
export function DirectorHistoryTable({ history }: { history: DirectorEntryJson[] }) {
  const { t } = useTranslation('lab');
  if (!history.length) return <EmptyState>{t('home.noData')}</EmptyState>;
  return (
    <Table.ScrollContainer minWidth={480}>
      <Table striped withTableBorder>
        <VisuallyHidden component="caption">{t('tabs.roleHonour')}</VisuallyHidden>
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
              <Table.Td>{d.to ? formatDate(d.to) : t('home.present')}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** One notice or circular: a link to its file (new tab) with its description, date and, once expired, 'Archived'. */
export function DocumentEntry({ item }: { item: LabItemJson }) {
  const { t } = useTranslation('lab');
  return (
    <Stack gap={2}>
      <Group gap="xs" wrap="wrap">
        {item.fileUrl ? (
          <Anchor href={item.fileUrl} target="_blank" rel="noopener noreferrer" fw={600}>
            {item.name}
            <VisuallyHidden>{t('opensInNewTab')}</VisuallyHidden>
          </Anchor>
        ) : (
          <Text fw={600}>{item.name}</Text>
        )}
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
      </Text>
    </Stack>
  );
}

/** Notices & Circular: two sections, each entry a link to its file; expired ones stay, marked archived. */
export function LabDocuments({ lab }: { lab: LabJson }) {
  const { t } = useTranslation('lab');
  const section = (key: 'notices' | 'circulars', items: LabItemJson[]) => (
    <section aria-labelledby={`lab-${key}-heading`}>
      <Title order={3} size="h4" mb="sm" id={`lab-${key}-heading`}>
        {t(`home.${key}`)}
      </Title>
      {items.length ? (
        <Stack component="ul" gap="md" p={0} m={0} style={{ listStyle: 'none' }}>
          {items.map((item) => (
            <li key={item._id}>
              <DocumentEntry item={item} />
            </li>
          ))}
        </Stack>
      ) : (
        <EmptyState>{t(key === 'notices' ? 'home.noNotices' : 'home.noCirculars')}</EmptyState>
      )}
    </section>
  );
  return (
    <Stack gap="xl">
      {section('notices', lab.notices)}
      {section('circulars', lab.circulars)}
    </Stack>
  );
}

/** Contact Us: type (label): value. */
export function ContactList({ contacts }: { contacts: LabJson['contactInfo'] }) {
  const { t } = useTranslation('lab');
  if (!contacts.length) return <EmptyState>{t('home.noContact')}</EmptyState>;
  const link = (c: LabJson['contactInfo'][number]) =>
    c.type === 'Email' ? (
      <Anchor href={`mailto:${c.value}`}>{c.value}</Anchor>
    ) : c.type === 'Phone' ? (
      <Anchor href={`tel:${c.value.replace(/[^\d+]/g, '')}`}>{c.value}</Anchor>
    ) : (
      <span style={{ whiteSpace: 'pre-line' }}>{c.value}</span>
    );
  return (
    <List spacing="sm" listStyleType="none" p={0}>
      {contacts.map((c) => (
        <List.Item key={c._id}>
          <Text span fw={600}>
            {t(`contactTypes.${c.type}`)}
            {c.label ? ` (${c.label})` : ''}:
          </Text>{' '}
          {link(c)}
        </List.Item>
      ))}
    </List>
  );
}
