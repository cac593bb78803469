import { useTranslation } from 'react-i18next';

import { PageTitle } from '#web/components/page-title.tsx';
import { useSession } from '#web/features/auth/use-session.ts';
import { LetterInFile } from '#web/features/efiles/components/letter-in-file.tsx';
import { type LetterExtraProps, LetterExtrasContext } from '#web/features/letters/components/letter-extras.tsx';
import { LettersManager } from '#web/features/letters/components/letters-manager.tsx';

/** e-Files' part of each letter's card: "Put in a file", or "in file <number>". */
const letterInFile = (letter: LetterExtraProps['letter']) => <LetterInFile letter={letter} />;
/** /dac — Letters Manager (spec §2): upload, edit and delete letters; an admin manages every letter, others their own. */
export default function LettersManagerRoute() {
  const { t } = useTranslation('letters');
  const { isAdmin } = useSession();
  return (
    <>
      <PageTitle>{t('manager.title')}</PageTitle>
      <LetterExtrasContext.Provider value={letterInFile}>
        <LettersManager mine={!isAdmin} />
      </LetterExtrasContext.Provider>
    </>
  );
}
