import { useTranslation } from 'react-i18next';

import { PageTitle } from '#web/components/page-title.tsx';
import { useSession } from '#web/features/auth/use-session.ts';
import { LettersList } from '#web/features/letters/components/letters-list.tsx';

/** /allLetter — Letters & Correspondence (spec §2): search every letter the person may see; admins also the recycle bin. */
export default function AllLettersRoute() {
  const { t } = useTranslation('letters');
  const { isAdmin } = useSession();
  return (
    <>
      <PageTitle>{t('list.title')}</PageTitle>
      <LettersList showRecycleBin={isAdmin} />
    </>
  );
}
