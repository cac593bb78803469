import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { DirectorHistoryManager } from '#web/components/unit/director-history-manager.tsx';

import { useDeleteDirectorEntry, useGroup, useSaveDirectorEntry, useStaff } from '../api.ts';
import { employeeLabel } from '../employee-label.ts';

/**
 * Manage AssociateDirectors (spec §2 group admin panel): the associate-director history with add, edit and delete; a
 * blank designation is Assistant Director. Staff are searched on the server as the admin types. The current one is
 * the entry with no end date.
 */
export function ManageGroupDirectors({ groupId }: { groupId: string }) {
  const { t } = useTranslation('groups');
  const group = useGroup(groupId);
  const save = useSaveDirectorEntry(groupId);
  const remove = useDeleteDirectorEntry(groupId);
  const [search, setSearch] = useState('');
  const [query] = useDebouncedValue(search.trim(), 250);
  const staff = useStaff(query, 50);
  const options = (staff.data ?? []).map((p) => ({
    value: p._id,
    label: employeeLabel(p, t('create.unknownEmployee')),
  }));
  return (
    <DirectorHistoryManager
      kind="associateDirector"
      messageNs="groups"
      headingOrder={3}
      canRemoveImage
      history={group.data?.assistantDirectorHistory ?? []}
      currentId={group.data?.currentAD?._id}
      loading={group.isPending}
      failed={group.isError}
      save={save}
      remove={remove}
      staff={options}
      staffLoading={staff.isFetching}
      onStaffSearch={setSearch}
    />
  );
}
