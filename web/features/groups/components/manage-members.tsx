import { Anchor, Button, Card, Group, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { GroupEmployeeJson, GroupNameJson } from '#shared/schemas/group.ts';

import { ConfirmDelete, useConfirmedDelete } from '#web/components/confirm-delete.tsx';
import { EmptyState } from '#web/components/empty-state.tsx';
import { PanelError } from '#web/components/panel-error.tsx';
import { PanelLoader } from '#web/components/panel-loader.tsx';

import { useAddMembers, useGroup, useGroupNames, useMoveMember, useRemoveMember } from '../api.ts';
import { matchesFilter } from '../employee-label.ts';
import { EmployeeChecklist } from './employee-checklist.tsx';
import { toast, withServer } from './group-parts.tsx';

/** One member's row: who they are, a group to move them to, Move and Remove. */
function MemberRow({
  member,
  targets,
  onMove,
  onRemove,
  busy,
}: {
  member: GroupEmployeeJson;
  targets: GroupNameJson[];
  onMove: (targetId: string) => void;
  onRemove: () => void;
  busy: boolean;
}) {
  const { t } = useTranslation('groups');
  const [target, setTarget] = useState<string | null>(null);
  return (
    <Paper component="li" withBorder radius="md" p="sm">
      <Group justify="space-between" align="center" wrap="wrap" gap="sm">
        <div style={{ minWidth: 0, flex: '1 1 14rem' }}>
          <Text fw={600}>{member.name}</Text>
          <Text size="sm" c="gray.7">
            {member.designation || t(`roles.${member.role}`, { ns: 'common' })}
          </Text>
          <Anchor href={`mailto:${member.email}`} size="sm" style={{ overflowWrap: 'anywhere' }}>
            {member.email}
          </Anchor>
        </div>
        <Group gap="xs" wrap="wrap">
          <Select
            size="xs"
            aria-label={t('members.moveTo', { name: member.name })}
            placeholder={t('members.moveToPlaceholder')}
            data={targets.map((g) => ({ value: g._id, label: g.name }))}
            value={target}
            onChange={setTarget}
            searchable
            w={190}
          />
          <Button size="xs" variant="light" disabled={!target || busy} onClick={() => target && onMove(target)}>
            {t('members.move')}
          </Button>
          <Button
            size="xs"
            variant="filled"
            color="red.9"
            disabled={busy}
            onClick={onRemove}
            aria-label={t('members.removeNamed', { name: member.name })}
          >
            {t('members.remove')}
          </Button>
        </Group>
      </Group>
    </Paper>
  );
}

/**
 * Manage Members (spec §2 calls it a static placeholder; built for real): the group's members with a filter, moving a
 * member to another group, removing one, and adding people from a filterable checklist. Admins only (the server checks).
 */
export function ManageMembers({ groupId }: { groupId: string }) {
  const { t } = useTranslation('groups');
  const group = useGroup(groupId);
  const names = useGroupNames();
  const add = useAddMembers(groupId);
  const move = useMoveMember(groupId);
  const remove = useRemoveMember(groupId);
  const [filter, setFilter] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const [chosenError, setChosenError] = useState<string | null>(null);
  const targets = (names.data ?? []).filter((g) => g._id !== groupId);
  const members = (group.data?.employees ?? []).filter((m) => matchesFilter(m, filter));

  const doMove = (member: GroupEmployeeJson, targetId: string) =>
    move.mutate(
      { userId: member._id, targetId },
      {
        onSuccess: (res) => toast('green', t('members.moved', { name: member.name, group: res.group.name })),
        onError: (err) => toast('red', withServer(t('members.failed'), err)),
      },
    );
  const removal = useConfirmedDelete<GroupEmployeeJson>(remove, {
    deleted: (who) => toast('green', t('members.removed', { name: who.name })),
    failed: (err) => toast('red', withServer(t('members.failed'), err)),
  });
  const addChosen = () => {
    if (!chosen.length) return setChosenError(t('members.noneChosen'));
    setChosenError(null);
    add.mutate(
      { userIds: chosen },
      {
        onSuccess: (res) => {
          toast('green', t('members.added', { count: res.added }));
          setChosen([]);
        },
        onError: (err) => toast('red', withServer(t('members.failed'), err)),
      },
    );
  };

  return (
    <Stack gap="xl">
      <section aria-labelledby="members-heading">
        <Title order={3} size="h4" mb="md" id="members-heading">
          {t('members.title', { group: group.data?.name ?? '' })}
        </Title>
        {group.isPending ? (
          <PanelLoader />
        ) : group.isError ? (
          <PanelError>{t('errors.loadData')}</PanelError>
        ) : group.data.employees.length === 0 ? (
          <EmptyState>{t('page.noMembers')}</EmptyState>
        ) : (
          <Stack gap="sm">
            <TextInput
              label={t('members.filter')}
              type="search"
              value={filter}
              onChange={(e) => setFilter(e.currentTarget.value)}
              maw={360}
            />
            {members.length === 0 ? (
              <Text c="gray.8">{t('members.noMatch')}</Text>
            ) : (
              <Stack
                component="ul"
                gap="xs"
                p={0}
                m={0}
                style={{ listStyle: 'none' }}
                aria-label={t('members.title', { group: group.data.name })}
              >
                {members.map((m) => (
                  <MemberRow
                    key={m._id}
                    member={m}
                    targets={targets}
                    busy={move.isPending || remove.isPending}
                    onMove={(targetId) => doMove(m, targetId)}
                    onRemove={() => removal.ask(m)}
                  />
                ))}
              </Stack>
            )}
          </Stack>
        )}
      </section>

      <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="add-members-heading">
        <Title order={3} size="h4" mb="xs" id="add-members-heading">
          {t('members.addTitle')}
        </Title>
        <Text size="sm" c="gray.8" mb="md">
          {t('members.addHint')}
        </Text>
        <Stack gap="sm">
          <EmployeeChecklist
            legend={t('create.assign')}
            value={chosen}
            onChange={(ids) => {
              setChosen(ids);
              setChosenError(null);
            }}
            excludeGroupId={groupId}
            disabled={add.isPending}
          />
          {chosenError && (
            <Text c="red.9" size="sm" role="alert">
              {chosenError}
            </Text>
          )}
          <div>
            <Button onClick={addChosen} loading={add.isPending}>
              {t('members.addSubmit')}
            </Button>
          </div>
        </Stack>
      </Card>
      <ConfirmDelete
        {...removal.dialog}
        title={t('members.remove')}
        message={t('members.confirmRemove', { name: removal.toDelete?.name ?? '' })}
        confirmLabel={t('members.remove')}
      />
    </Stack>
  );
}
