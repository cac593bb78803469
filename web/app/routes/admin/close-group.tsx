import { Card, Stack, Text, Title } from '@mantine/core';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { CloseGroupJson } from '#shared/schemas/close-group.ts';

import { PageTitle } from '#web/components/page-title.tsx';
import { CloseGroupForm } from '#web/features/close-groups/components/close-group-form.tsx';
import { CloseGroupsTable } from '#web/features/close-groups/components/close-groups-table.tsx';

/** /admin/closeGroup (spec §2 Manage Close Groups): the create and edit form above the table of close groups. */
export default function AdminCloseGroupRoute() {
  const { t } = useTranslation(['close-groups', 'common']);
  const [editing, setEditing] = useState<CloseGroupJson | null>(null);
  const formCard = useRef<HTMLDivElement>(null);

  const edit = (group: CloseGroupJson) => {
    setEditing(group);
    requestAnimationFrame(() => {
      formCard.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
      formCard.current?.querySelector('input')?.focus({ preventScroll: true });
    });
  };

  return (
    <>
      <PageTitle>{t('common:pages.adminCloseGroup')}</PageTitle>
      <Text mb="lg" maw={820}>
        {t('admin.intro')}
      </Text>
      <Stack gap="xl">
        <Card
          withBorder
          radius="md"
          padding="lg"
          component="section"
          aria-labelledby="close-group-form-heading"
          ref={formCard}
        >
          <Title order={2} size="h3" mb="md" id="close-group-form-heading">
            {editing ? t('admin.editTitle', { name: editing.groupName }) : t('admin.createTitle')}
          </Title>
          <CloseGroupForm key={editing?._id ?? 'new'} editing={editing} onDone={() => setEditing(null)} />
        </Card>
        <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="close-groups-table-heading">
          <Title order={2} size="h3" mb="md" id="close-groups-table-heading">
            {t('admin.tableTitle')}
          </Title>
          <CloseGroupsTable
            onEdit={edit}
            editingId={editing?._id ?? null}
            onDeleted={(id) => setEditing((current) => (current?._id === id ? null : current))}
          />
        </Card>
      </Stack>
    </>
  );
}
