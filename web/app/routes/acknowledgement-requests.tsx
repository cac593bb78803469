import { useTranslation } from 'react-i18next';

import { PageTitle } from '#web/components/page-title.tsx';
import { RequestList } from '#web/features/acknowledgements/components/request-list.tsx';

/**
 * /acknowledgements/requests — acknowledgement reports: the requests this person may report on, as their
 * publisher, a group head, a director or an administrator (the server decides which).
 */
export default function AcknowledgementRequestsRoute() {
  const { t } = useTranslation('acknowledgements');
  return (
    <>
      <PageTitle>{t('requests.title')}</PageTitle>
      <RequestList />
    </>
  );
}
