import { useState } from 'react';
import { Alert, Button, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '#web/lib/paths.ts';
import { EmptyState } from '#web/components/empty-state.tsx';
import { PageLoader } from '#web/components/page-loader.tsx';
import { PageTitle } from '#web/components/page-title.tsx';
import { useSession } from '#web/features/auth/use-session.ts';
import { GalleryCarousel } from '#web/features/gallery/components/gallery-carousel.tsx';
import { useOnlyLab } from '#web/features/labs/api.ts';
import { LabTabs } from '#web/features/labs/components/lab-tabs.tsx';
import { LatestDocuments } from '#web/features/labs/components/latest-documents.tsx';
import { useGroupAchievements } from '#web/features/groups/api.ts';
import { AchievementsList } from '#web/features/labs/components/achievements-list.tsx';
import { PersonnelTable } from '#web/features/labs/components/personnel-table.tsx';
import { useDirectory } from '#web/features/users/api.ts';
import { Pager } from '#web/features/users/components/pager.tsx';
import classes from './home.module.css';

/** Groups per request in Product & Achievements; "Show more groups" asks for the next ones. */
const ACHIEVEMENT_GROUPS = 20;

/** Product & Achievements: the groups feature's data in the lab feature's list. */
function LabAchievements() {
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
function LabPersonnel() {
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

/**
 * / — the lab home (spec §2): the gallery carousel and the latest notices and circulars on top, the ten tabs below.
 * Content appears only once the lab id is known. Product & Achievements comes from the groups feature and Personnel
 * Details from the people feature; this route composes them.
 */
export default function HomeRoute() {
  const { t } = useTranslation('lab');
  const lab = useOnlyLab();
  const { isAdmin } = useSession();

  if (lab.isPending) return <PageLoader />;
  if (lab.isError)
    return (
      <>
        <PageTitle>{t('tabs.label')}</PageTitle>
        <Alert color="red" variant="light" role="alert">
          <Text c="gray.9">{t('errors.fetchLabData')}</Text>
        </Alert>
      </>
    );
  if (!lab.data)
    return (
      <>
        <PageTitle>{t('tabs.label')}</PageTitle>
        <EmptyState
          action={
            isAdmin ? (
              <Button component={Link} to={paths.admin.addLab}>
                {t('home.addLab')}
              </Button>
            ) : undefined
          }
        >
          {t('home.noLab')}
        </EmptyState>
      </>
    );

  const labId = lab.data._id;
  return (
    <Stack gap="lg">
      <PageTitle mb={0}>{lab.data.name}</PageTitle>
      {/* The gallery shows whole 500 px slides (spec §9) and the notices take the rest of the row (issue 16). */}
      <div className={classes.top}>
        <div className={classes.gallery}>
          <GalleryCarousel labId={labId} />
        </div>
        <div className={classes.latest}>
          <LatestDocuments labId={labId} />
        </div>
      </div>
      <LabTabs labId={labId} products={<LabAchievements />} personnel={<LabPersonnel />} />
    </Stack>
  );
}
