import { useTranslation } from 'react-i18next';

import { PageTitle } from '#web/components/page-title.tsx';
import { useSession } from '#web/features/auth/use-session.ts';
import { LetterInFile } from '#web/features/efiles/components/letter-in-file.tsx';
import { type LetterExtraProps, LetterExtrasContext } from '#web/features/letters/components/letter-extras.tsx';
import { LettersList } from '#web/features/letters/components/letters-list.tsx';

/** e-Files' part of each letter's card: "Put in a file", or "in file <number>". */
const letterInFile = (letter: LetterExtraProps['letter']) => <LetterInFile letter={letter} />;
/** /allLetter — Letters & Correspondence (spec §2): search every letter the person may see; admins also the recycle bin. */
export default function AllLettersRoute() {
  const { t } = useTranslation('letters');
  const { isAdmin } = useSession();
  return (
    <>
      <PageTitle>{t('list.title')}</PageTitle>
      <LetterExtrasContext.Provider value={letterInFile}>
        <LettersList showRecycleBin={isAdmin} />
      </LetterExtrasContext.Provider>
    </>
  );
}
