import {
  Anchor,
  Avatar,
  Badge,
  Button,
  Card,
  Group,
  Loader,
  NativeSelect,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';

import { type Role, ROLES } from '#shared/constants.ts';
import type { GroupNameJson } from '#shared/schemas/group.ts';
import type { DirectoryUserJson } from '#shared/schemas/user.ts';

import { EmptyState } from '#web/components/empty-state.tsx';
import { Pager } from '#web/components/pager.tsx';
import { PanelError } from '#web/components/panel-error.tsx';
import { assignableRoles } from '#web/lib/access.policy.ts';

import { type DirectoryFilter, useDirectory } from '../api.ts';
import { initialsOf } from './profile-photo.tsx';

/** Cards per page: fills rows of one, two or three columns. */
export const DIRECTORY_PAGE_SIZE = 24;

function EmployeeCard({ person }: { person: DirectoryUserJson }) {
  const { t } = useTranslation('people');
  const name = person.personalDetails.name;
  return (
    <Card withBorder radius="md" padding="md" component="article" aria-label={name}>
      <Group wrap="nowrap" align="flex-start">
        <Avatar
          src={person.photo}
          alt={person.photo ? t('profile.photoOf', { name }) : undefined}
          size={64}
          radius={64}
          color="navy"
        >
          {initialsOf(name)}
        </Avatar>
        <Stack gap={4} miw={0}>
          <Title order={2} size="h5" style={{ overflowWrap: 'anywhere' }}>
            {name}
          </Title>
          <Anchor href={`mailto:${person.email}`} size="sm" style={{ overflowWrap: 'anywhere' }}>
            {person.email}
          </Anchor>
          <Group gap={6}>
            <Badge color="navy" variant="light">
              {t(`roles.${person.role}`)}
            </Badge>
          </Group>
          <Text size="sm" c="gray.8">
            {person.group?.name ?? t('directory.noGroup')}
          </Text>
          {person.professionalDetails.designation && <Text size="sm">{person.professionalDetails.designation}</Text>}
          {person.professionalDetails.intercom && (
            <Text size="sm" c="gray.8">
              {t('fields.intercom')}: {person.professionalDetails.intercom}
            </Text>
          )}
        </Stack>
      </Group>
    </Card>
  );
}

/**
 * Employee directory (spec §2 /employees): a card per approved member of staff with name, email, role, photo, group
 * and designation; filtered by name or email, group and role, searched and paged by the server. The filters live in
 * the address (?q=&group=&role=&page=), which the header search box also fills.
 */
export function EmployeeDirectory({ groups }: { groups: GroupNameJson[] }) {
  const { t } = useTranslation('people');
  const [params, setParams] = useSearchParams();
  const [text, setText] = useState(params.get('q') ?? '');
  const [debounced] = useDebouncedValue(text.trim(), 300);
  const role = (ROLES as readonly string[]).includes(params.get('role') ?? '') ? (params.get('role') as Role) : '';
  const groupId = params.get('group') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);

  const update = (changes: Record<string, string>) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(changes)) {
          if (value) next.set(key, value);
          else next.delete(key);
        }
        if (!('page' in changes)) next.delete('page');
        return next;
      },
      { replace: true },
    );

  // ?q= is written here when the typed text settles, and by the header search box while this screen is open: follow
  // the address only when it was not this screen that wrote it (else a pause after a space would eat the space).
  const fromAddress = params.get('q') ?? '';
  const written = useRef(fromAddress);
  useEffect(() => {
    if (fromAddress === written.current) return;
    written.current = fromAddress;
    setText(fromAddress);
  }, [fromAddress]);
  useEffect(() => {
    if (debounced === fromAddress.trim()) return;
    written.current = debounced;
    update({ q: debounced });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the typed text settles
  }, [debounced]);

  const filter: DirectoryFilter = { q: fromAddress.trim(), role, groupId };
  const directory = useDirectory(filter, { limit: DIRECTORY_PAGE_SIZE, offset: (page - 1) * DIRECTORY_PAGE_SIZE });
  const pages = Math.max(1, Math.ceil((directory.data?.total ?? 0) / DIRECTORY_PAGE_SIZE));
  const filtered = Boolean(filter.q || role || groupId);

  return (
    <Stack gap="md">
      <form role="search" aria-label={t('directory.title')} onSubmit={(event) => event.preventDefault()}>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextInput
            label={t('directory.search')}
            placeholder={t('directory.searchPlaceholder')}
            type="search"
            value={text}
            onChange={(event) => setText(event.currentTarget.value)}
            maxLength={200}
          />
          <NativeSelect
            label={t('fields.group')}
            value={groupId}
            onChange={(event) => update({ group: event.currentTarget.value })}
            data={[
              { value: '', label: t('directory.allGroups') },
              ...groups.map((g) => ({ value: g._id, label: g.name })),
            ]}
          />
          <NativeSelect
            label={t('fields.role')}
            value={role}
            onChange={(event) => update({ role: event.currentTarget.value })}
            data={[
              { value: '', label: t('directory.allRoles') },
              ...assignableRoles.map((r) => ({ value: r, label: t(`roles.${r}`) })),
            ]}
          />
        </SimpleGrid>
      </form>

      <Group justify="space-between" mih={36}>
        <Text c="gray.8" role="status">
          {directory.isPending
            ? t('directory.loading')
            : directory.data
              ? t('directory.count', { count: directory.data.total })
              : ''}
        </Text>
        {filtered && (
          <Button
            variant="subtle"
            onClick={() => {
              setText('');
              update({ q: '', group: '', role: '' });
            }}
          >
            {t('directory.clear')}
          </Button>
        )}
      </Group>

      {directory.isPending ? (
        <Loader aria-hidden="true" />
      ) : directory.isError ? (
        <PanelError>{t('directory.loadFailed')}</PanelError>
      ) : directory.data.items.length === 0 ? (
        <EmptyState>{t('directory.empty')}</EmptyState>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} style={{ opacity: directory.isPlaceholderData ? 0.6 : 1 }}>
          {directory.data.items.map((person) => (
            <EmployeeCard key={person._id} person={person} />
          ))}
        </SimpleGrid>
      )}

      <Pager
        total={pages}
        value={page}
        onChange={(next) => update({ page: next > 1 ? String(next) : '' })}
        label={t('directory.pages')}
      />
    </Stack>
  );
}
