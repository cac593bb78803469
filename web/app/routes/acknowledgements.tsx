import { useTranslation } from 'react-i18next';

import { PageTitle } from '#web/components/page-title.tsx';
import { MyAcknowledgements } from '#web/features/acknowledgements/components/my-acknowledgements.tsx';

/** /acknowledgements — "To acknowledge": the notices and circulars the signed-in person must acknowledge. */
export default function AcknowledgementsRoute() {
  const { t } = useTranslation('acknowledgements');
  return (
    <>
      <PageTitle>{t('mine.title')}</PageTitle>
      <MyAcknowledgements />
    </>
  );
}
