import { useTranslation } from 'react-i18next';

import { PageTitle } from '#web/components/page-title.tsx';
import { Inbox } from '#web/features/letters/components/inbox.tsx';

/** /dac/inbox — "Marked to me" (decision 020): the letters marked to the signed-in person. */
export default function InboxRoute() {
  const { t } = useTranslation('letters');
  return (
    <>
      <PageTitle>{t('dak.inbox.title')}</PageTitle>
      <Inbox />
    </>
  );
}
