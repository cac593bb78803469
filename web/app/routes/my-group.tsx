import { MyGroup } from '#web/features/groups/components/my-group.tsx';
import { paths } from '#web/lib/paths.ts';

/** /my-group (spec §2 My Group): the signed-in person's group and its members. */
export default function MyGroupRoute() {
  return <MyGroup groupTo={paths.group.to} />;
}
