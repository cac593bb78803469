import { useTranslation } from 'react-i18next';

import { PageTitle } from '#web/components/page-title.tsx';
import { useSession } from '#web/features/auth/use-session.ts';
import { LettersManager } from '#web/features/letters/components/letters-manager.tsx';

/** /dac — Letters Manager (spec §2): upload, edit and delete letters; an admin manages every letter, others their own. */
export default function LettersManagerRoute() {
  const { t } = useTranslation('letters');
  const { isAdmin } = useSession();
  return (
    <>
      <PageTitle>{t('manager.title')}</PageTitle>
      <LettersManager mine={!isAdmin} />
    </>
  );
}
