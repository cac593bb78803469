import { DirectorHistoryManager, type StaffOption } from '#web/components/unit/director-history-manager.tsx';

import { useDeleteDirector, useLab, useSaveDirector } from '../api.ts';

/**
 * Manage Directors (spec §2 Lab admin panel): add, edit and delete director history entries; the designation
 * defaults to Director. The staff to choose from come from the route (the people it may list).
 */
export function ManageDirectors({
  labId,
  staff,
  staffLoading,
}: {
  labId: string;
  staff: StaffOption[];
  staffLoading?: boolean;
}) {
  const lab = useLab(labId);
  const save = useSaveDirector(labId);
  const remove = useDeleteDirector(labId);
  return (
    <DirectorHistoryManager
      kind="director"
      messageNs="lab"
      history={lab.data?.directorHistory ?? []}
      currentId={lab.data?.currentDirector?._id}
      loading={lab.isPending}
      failed={lab.isError}
      save={save}
      remove={remove}
      staff={staff}
      staffLoading={staffLoading}
    />
  );
}
