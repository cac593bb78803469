import { useParams } from 'react-router';

import { GroupAdminPanel } from '#web/features/groups/components/group-admin-panel.tsx';
import { paths } from '#web/lib/paths.ts';

/** /admin/group/{id}: the group admin panel (spec §2), admins only (the router's guard and the server). */
export default function AdminGroupRoute() {
  const { id = '' } = useParams();
  return <GroupAdminPanel key={id} groupId={id} groupTo={paths.group.to(id)} />;
}
