import { useTranslation } from 'react-i18next';

import { PageTitle } from '#web/components/page-title.tsx';
import { LetterInFile } from '#web/features/efiles/components/letter-in-file.tsx';
import { Inbox } from '#web/features/letters/components/inbox.tsx';
import { type LetterExtraProps, LetterExtrasContext } from '#web/features/letters/components/letter-extras.tsx';

/** e-Files' part of each letter's card: "Put in a file", or "in file <number>". */
const letterInFile = (letter: LetterExtraProps['letter']) => <LetterInFile letter={letter} />;
/** /dac/inbox — "Marked to me" (decision 020): the letters marked to the signed-in person. */
export default function InboxRoute() {
  const { t } = useTranslation('letters');
  return (
    <>
      <PageTitle>{t('dak.inbox.title')}</PageTitle>
      <LetterExtrasContext.Provider value={letterInFile}>
        <Inbox />
      </LetterExtrasContext.Provider>
    </>
  );
}
