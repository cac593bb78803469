import { Navigate, useParams } from 'react-router';

import { paths } from '#web/lib/paths.ts';

/**
 * /admin/groups/{id} (nested in the /admin layout, spec §2): the group admin panel lives at /admin/group/{id} with its
 * own side menu, so this address leads there rather than showing a second copy beside the lab menu.
 */
export default function AdminGroupsRoute() {
  const { id = '' } = useParams();
  return <Navigate to={paths.admin.group.to(id)} replace />;
}
