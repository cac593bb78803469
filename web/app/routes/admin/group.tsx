import { useParams } from 'react-router';

import { useAcknowledgementSlot } from '#web/features/acknowledgements/components/publish-fields.tsx';
import { useGroup } from '#web/features/groups/api.ts';
import { GroupAdminPanel } from '#web/features/groups/components/group-admin-panel.tsx';
import { paths } from '#web/lib/paths.ts';

/**
 * /admin/group/{id}: the group admin panel (spec §2), admins only (the router's guard and the server). Its notices and
 * circulars may ask the group's members to acknowledge them.
 */
export default function AdminGroupRoute() {
  const { id = '' } = useParams();
  const group = useGroup(id);
  const slot = useAcknowledgementSlot({ type: 'group', group: { _id: id, name: group.data?.name ?? '' } });
  return <GroupAdminPanel key={id} groupId={id} groupTo={paths.group.to(id)} slot={slot} />;
}
