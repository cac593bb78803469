import { Navigate, useParams } from 'react-router';

import { paths } from '#web/lib/paths.ts';

/** /group/{id}, where a saved group edit returns (spec §2): the group page itself lives at /group/id/{id}. */
export default function GroupAfterEditRoute() {
  const { id = '' } = useParams();
  return <Navigate to={paths.group.to(id)} replace />;
}
