import {
  Accordion,
  Alert,
  Badge,
  Button,
  Group,
  List,
  Loader,
  Pagination,
  SimpleGrid,
  Stack,
  Text,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { CloseGroupJson } from '#shared/schemas/close-group.ts';

import { EmptyState } from '#web/components/empty-state.tsx';
import { ApiError } from '#web/lib/api-client.ts';

import { useMyCloseGroups } from '../api.ts';
import { CloseGroupDocuments } from './close-group-documents.tsx';
import { CloseGroupDuration, CloseGroupStatusBadge } from './close-group-parts.tsx';

/** Close groups per page of the accordion. */
const PAGE_SIZE = 20;

function Detail({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <Text size="sm" fw={700} c="gray.8">
        {label}
      </Text>
      <Text component="div" size="sm" style={{ whiteSpace: 'pre-line' }}>
        {children}
      </Text>
    </div>
  );
}

function CloseGroupItem({ group }: { group: CloseGroupJson }) {
  const { t } = useTranslation('close-groups');
  return (
    <Accordion.Item value={group._id}>
      <Accordion.Control>
        <Group gap="sm" wrap="wrap" justify="space-between" pr="xs">
          <Text fw={700}>{group.groupName}</Text>
          <Group gap="xs" wrap="wrap">
            <CloseGroupStatusBadge status={group.status} />
            <CloseGroupDuration group={group} />
            <Badge variant="outline" color="gray.8" tt="none">
              {t('mine.documentCount', { count: group.documents.length })}
            </Badge>
          </Group>
        </Group>
      </Accordion.Control>
      <Accordion.Panel>
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <Detail label={t('mine.purpose')}>{group.groupPurpose}</Detail>
            <Detail label={t('mine.members')}>
              <List size="sm" spacing={2}>
                {group.requestedBy.map((m) => (
                  <List.Item key={m._id}>{m.name ? `${m.name} (${m.email})` : m.email}</List.Item>
                ))}
              </List>
            </Detail>
            {group.adminRemarks && <Detail label={t('mine.remarks')}>{group.adminRemarks}</Detail>}
          </SimpleGrid>
          <CloseGroupDocuments group={group} />
        </Stack>
      </Accordion.Panel>
    </Accordion.Item>
  );
}

/**
 * My Group Documents (spec §2): an accordion of the signed-in user's close groups with their documents. The server
 * decides whose groups they are from the token (spec §6); an administrator sees every close group.
 */
export function MyCloseGroups({ isAdmin }: { isAdmin: boolean }) {
  const { t } = useTranslation('close-groups');
  const [page, setPage] = useState(1);
  const groups = useMyCloseGroups({ limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE });

  if (groups.isPending) {
    return (
      <Group gap="sm">
        <Loader size="sm" />
        <Text>{t('mine.loading')}</Text>
      </Group>
    );
  }
  if (groups.isError) {
    const status = groups.error instanceof ApiError ? groups.error.status : 0;
    return (
      <Alert color="red" variant="light" role="alert">
        <Text c="gray.9" mb="sm">
          {status === 401 ? t('mine.authFailed') : t('mine.loadFailed')}
        </Text>
        <Button size="xs" variant="default" onClick={() => void groups.refetch()}>
          {t('mine.retry')}
        </Button>
      </Alert>
    );
  }
  const { items, total } = groups.data;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  if (!items.length) return <EmptyState>{t('mine.empty')}</EmptyState>;

  return (
    <Stack gap="md">
      <Text maw={820}>
        {t('mine.intro')}
        {isAdmin ? ` ${t('mine.adminIntro')}` : ''}
      </Text>
      {/* The first group starts open: most people belong to one close group at a time. */}
      <Accordion
        multiple
        variant="separated"
        order={2}
        defaultValue={items[0] ? [items[0]._id] : []}
        chevronPosition="right"
      >
        {items.map((group) => (
          <CloseGroupItem key={group._id} group={group} />
        ))}
      </Accordion>
      {pages > 1 && <Pagination total={pages} value={page} onChange={setPage} aria-label={t('mine.pagination')} />}
    </Stack>
  );
}
