import { Anchor, Avatar, Card, Group, List, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import type { ContactInfoJson, DirectorEntryJson } from '#shared/schemas/unit.ts';

import { useFormatDate } from '#web/lib/use-format-date.ts';

import { EmptyState } from '../empty-state.tsx';

// The public tab panels the lab home and the group page share (spec §2: the group's tabs mirror the lab's, and spec §3
// gives both the same director entry, office and contact shapes). The words they share are in the common namespace
// ('unit'); what differs (captions, empty texts) comes from the caller.

/** Vision and Mission: two cards; 'No information provided yet.' for an empty one. */
export function VisionMissionCards({ vision, mission }: { vision: string; mission: string }) {
  const { t } = useTranslation('common');
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      {(
        [
          ['vision', vision],
          ['mission', mission],
        ] as const
      ).map(([key, text]) => (
        <Card key={key} withBorder padding="lg" radius="md">
          <Title order={3} size="h4" mb="xs">
            {t(`unit.${key}`)}
          </Title>
          <Text style={{ whiteSpace: 'pre-line' }}>{text || t('unit.noInformation')}</Text>
        </Card>
      ))}
    </SimpleGrid>
  );
}

/** The picture of a director entry: its own image, else the linked user's photo. */
export const entryPhoto = (entry: DirectorEntryJson) => entry.image ?? entry.user?.photo ?? null;

/**
 * Director Profile / Group Leader Profile: the current entry's photo, name, designation and about (its own, else the
 * linked user's); 'No information provided yet.' when there is none. `since` words the start date.
 */
export function LeaderProfile({
  leader,
  since,
  headingOrder = 3,
}: {
  leader: DirectorEntryJson | null;
  since: (date: string) => string;
  /** 3 inside a tab (under its h2); 2 straight under a page's h1 (/directorprofile). */
  headingOrder?: 2 | 3;
}) {
  const { formatDate } = useFormatDate();
  const { t } = useTranslation('common');
  if (!leader) return <EmptyState>{t('unit.noInformation')}</EmptyState>;
  const about = leader.about || leader.user?.about || '';
  return (
    <Card withBorder padding="lg" radius="md">
      <Group align="flex-start" wrap="wrap" gap="lg">
        <Avatar src={entryPhoto(leader)} alt={leader.name} size={160} radius="md" color="navy">
          {leader.name.slice(0, 1)}
        </Avatar>
        <Stack gap={4} style={{ flex: '1 1 16rem' }}>
          <Title order={headingOrder} size="h3">
            {leader.name}
          </Title>
          <Text fw={600} c="navy.8">
            {leader.designation}
          </Text>
          <Text size="sm" c="gray.7">
            {since(formatDate(leader.from))}
          </Text>
          <Text mt="sm" style={{ whiteSpace: 'pre-line' }}>
            {about || t('unit.noInformation')}
          </Text>
        </Stack>
      </Group>
    </Card>
  );
}

export interface ContactListProps {
  contacts: ContactInfoJson[];
  /** Bullets before the entries (the group page), or a plain list (the lab home). */
  bulleted?: boolean;
  /** Phone numbers as tel: links (the lab home). */
  linkPhones?: boolean;
}

/** Contact Us: type (label): value, an email as a mailto: link; 'No contact information available.' */
export function ContactList({ contacts, bulleted, linkPhones }: ContactListProps) {
  const { t } = useTranslation('common');
  if (!contacts.length) return <EmptyState>{t('unit.noContact')}</EmptyState>;
  const value = (c: ContactInfoJson) =>
    c.type === 'Email' ? (
      <Anchor href={`mailto:${c.value}`} underline="always">
        {c.value}
      </Anchor>
    ) : c.type === 'Phone' && linkPhones ? (
      <Anchor href={`tel:${c.value.replace(/[^\d+]/g, '')}`} underline="always">
        {c.value}
      </Anchor>
    ) : (
      <Text span style={{ whiteSpace: 'pre-line' }}>
        {c.value}
      </Text>
    );
  return (
    <List spacing={bulleted ? 'xs' : 'sm'} {...(bulleted ? {} : { listStyleType: 'none', p: 0 })}>
      {contacts.map((c) => (
        <List.Item key={c._id}>
          <Text span fw={600}>
            {t(`unit.contactTypes.${c.type}`)}
            {c.label ? ` (${c.label})` : ''}:
          </Text>{' '}
          {value(c)}
        </List.Item>
      ))}
    </List>
  );
}

export interface ItemListSectionProps<Item extends { _id: string }> {
  /** The heading's id (the section is named by it). */
  id: string;
  title: string;
  items: Item[];
  /** Shown when there are no items, in the spec's words ('No notices found for this lab.'). */
  empty: string;
  /** One entry (a link to its file with its description). */
  children: (item: Item) => ReactNode;
}

/** A titled list of notices, circulars or files, or its empty text. */
export function ItemListSection<Item extends { _id: string }>({
  id,
  title,
  items,
  empty,
  children,
}: ItemListSectionProps<Item>) {
  return (
    <section aria-labelledby={id}>
      <Title order={3} size="h4" mb="sm" id={id}>
        {title}
      </Title>
      {items.length ? (
        <Stack component="ul" gap="md" p={0} m={0} style={{ listStyle: 'none' }}>
          {items.map((item) => (
            <li key={item._id}>{children(item)}</li>
          ))}
        </Stack>
      ) : (
        <EmptyState>{empty}</EmptyState>
      )}
    </section>
  );
}
