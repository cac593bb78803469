import { paths } from '#web/lib/paths.ts';
import { MyGroup } from '#web/features/groups/components/my-group.tsx';

/** /my-group (spec §2 My Group): the signed-in person's group and its members. */
export default function MyGroupRoute() {
  return <MyGroup groupTo={paths.group.to} />;
}
