import { Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

import { EmptyState } from '#web/components/empty-state.tsx';
import { PageLoader } from '#web/components/page-loader.tsx';
import { PageTitle } from '#web/components/page-title.tsx';
import { PanelError } from '#web/components/panel-error.tsx';
import { LeaderProfile } from '#web/components/unit/unit-panels.tsx';
import { DirectorHistoryTable } from '#web/components/unit/unit-tables.tsx';
import { useLab, useOnlyLab } from '#web/features/labs/api.ts';

/**
 * /directorprofile — its content is not shown in the spec: the current director's profile and the Role & Honour
 * history, as on the home page's tabs.
 */
export default function DirectorProfileRoute() {
  const { t } = useTranslation('lab');
  const only = useOnlyLab();
  const lab = useLab(only.data?._id);
  const failed = only.isError || lab.isError;
  return (
    <>
      <PageTitle>{t('directorPage.title')}</PageTitle>
      {failed ? (
        <PanelError>{t('errors.directorHistory')}</PanelError>
      ) : only.data === null ? (
        <EmptyState>{t('home.noInformation')}</EmptyState>
      ) : !lab.data ? (
        <PageLoader />
      ) : (
        <Stack gap="xl">
          <LeaderProfile
            leader={lab.data.currentDirector}
            since={(date) => t('home.inOfficeSince', { date })}
            headingOrder={2}
          />
          {/* No landmark of its own: the table's scroll region already carries the name (axe landmark-unique). */}
          <div>
            <Title order={2} size="h3" mb="md" id="director-history-heading">
              {t('directorPage.history')}
            </Title>
            <DirectorHistoryTable history={lab.data.directorHistory} caption={t('tabs.roleHonour')} />
          </div>
        </Stack>
      )}
    </>
  );
}
