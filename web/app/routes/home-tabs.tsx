import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { Pager } from '#web/components/pager.tsx';
import { useSession } from '#web/features/auth/use-session.ts';
import { useGroupAchievements } from '#web/features/groups/api.ts';
import { AchievementsList } from '#web/features/labs/components/achievements-list.tsx';
import { PersonnelTable } from '#web/features/labs/components/personnel-table.tsx';
import { useDirectory } from '#web/features/users/api.ts';

// Two tabs of the lab home (/) that come from other features; home.tsx loads this file when one is first opened.

/** Groups per request in Product & Achievements; "Show more groups" asks for the next ones. */
const ACHIEVEMENT_GROUPS = 20;

/** Product & Achievements: the groups feature's data in the lab feature's list. */
export function LabAchievements() {
  const { isSignedIn } = useSession();
  const [limit, setLimit] = useState(ACHIEVEMENT_GROUPS);
  const achievements = useGroupAchievements(limit);
  const groups = achievements.data;
  return (
    <AchievementsList
      groups={groups}
      loading={achievements.isPending}
      failed={achievements.isError}
      signedIn={isSignedIn}
      onMore={groups && groups.length >= limit ? () => setLimit((n) => n + ACHIEVEMENT_GROUPS) : undefined}
      loadingMore={achievements.isFetching}
    />
  );
}

/** Staff per page in Personnel Details. */
const PERSONNEL_PAGE = 20;
const EVERYONE = { q: '', role: '', groupId: '' } as const;

/** Personnel Details: a page of the people feature's staff directory in the lab feature's table (signed-in only). */
export function LabPersonnel() {
  const { t } = useTranslation('lab');
  const { isSignedIn } = useSession();
  if (!isSignedIn) return <PersonnelTable signedIn={false} people={undefined} />;
  return <SignedInPersonnel label={t('personnel.pageLabel')} />;
}

function SignedInPersonnel({ label }: { label: string }) {
  const [page, setPage] = useState(1);
  const offset = (page - 1) * PERSONNEL_PAGE;
  const directory = useDirectory(EVERYONE, { limit: PERSONNEL_PAGE, offset });
  const people = directory.data?.items.map((u) => ({ _id: u._id, name: u.personalDetails.name, email: u.email }));
  const pages = Math.ceil((directory.data?.total ?? 0) / PERSONNEL_PAGE);
  return (
    <PersonnelTable
      signedIn
      people={people}
      loading={directory.isPending}
      failed={directory.isError}
      firstNumber={offset + 1}
      footer={<Pager total={pages} value={page} onChange={setPage} label={label} />}
    />
  );
}
