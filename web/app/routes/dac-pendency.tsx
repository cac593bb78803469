import { useTranslation } from 'react-i18next';

import { PageTitle } from '#web/components/page-title.tsx';
import { useSession } from '#web/features/auth/use-session.ts';
import { EfilePendency } from '#web/features/efiles/components/efile-pendency.tsx';
import { useGroupNames } from '#web/features/groups/api.ts';
import { PendencyReport } from '#web/features/letters/components/pendency-report.tsx';
import { seesAllPendency } from '#web/lib/access.policy.ts';

/**
 * /dac/pendency — pendency of letters (decision 020): directors and administrators choose a group or the whole lab; an
 * associate director sees their own group (the server decides). Pendency of e-files under it, for the same period and
 * group (decision 121).
 */
export default function PendencyRoute() {
  const { t } = useTranslation('letters');
  const { role } = useSession();
  const seesAll = seesAllPendency(role);
  const groups = useGroupNames({ enabled: seesAll });
  return (
    <>
      <PageTitle>{t('dak.pendency.title')}</PageTitle>
      <PendencyReport
        groups={seesAll ? (groups.data ?? []) : null}
        more={(filter) => <EfilePendency filter={filter} />}
      />
    </>
  );
}
