import { useParams } from 'react-router';

import { useSession } from '#web/features/auth/use-session.ts';
import { GroupPage } from '#web/features/groups/components/group-page.tsx';
import { paths } from '#web/lib/paths.ts';

/** /group/id/{id}: the group page with its ten tabs (spec §2); Access Denied for those outside the group. */
export default function GroupRoute() {
  const { id = '' } = useParams();
  const { isAdmin } = useSession();
  return (
    <GroupPage
      key={id}
      groupId={id}
      isAdmin={isAdmin}
      editTo={paths.editGroup.to(id)}
      adminTo={paths.admin.group.to(id)}
    />
  );
}
