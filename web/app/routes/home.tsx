import { Button, Stack } from '@mantine/core';
import { lazy } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { EmptyState } from '#web/components/empty-state.tsx';
import { PageLoader } from '#web/components/page-loader.tsx';
import { PageTitle } from '#web/components/page-title.tsx';
import { PanelError } from '#web/components/panel-error.tsx';
import { useSession } from '#web/features/auth/use-session.ts';
import { GalleryCarousel } from '#web/features/gallery/components/gallery-carousel.tsx';
import { useOnlyLab } from '#web/features/labs/api.ts';
import { LabTabs } from '#web/features/labs/components/lab-tabs.tsx';
import { LatestDocuments } from '#web/features/labs/components/latest-documents.tsx';
import { withMantineStyles } from '#web/lib/mantine-styles.ts';
import { paths } from '#web/lib/paths.ts';

import classes from './home.module.css';

// Product & Achievements and Personnel Details load when their tab is first opened.
const loadTabs = withMantineStyles(() => import('./home-tabs.tsx'));
const LabAchievements = lazy(() => loadTabs().then((m) => ({ default: m.LabAchievements })));
const LabPersonnel = lazy(() => loadTabs().then((m) => ({ default: m.LabPersonnel })));

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
        <PanelError>{t('errors.fetchLabData')}</PanelError>
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
      {/* The gallery shows whole 500 px slides (spec §9) and the notices take the rest of the row. */}
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
