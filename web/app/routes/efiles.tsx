import { useTranslation } from 'react-i18next';

import { PageTitle } from '#web/components/page-title.tsx';
import { MyFiles } from '#web/features/efiles/components/my-files.tsx';

/** /efiles — My files (decision 107). */
export default function EfilesRoute() {
  const { t } = useTranslation('efiles');
  return (
    <>
      <PageTitle>{t('myFiles.title')}</PageTitle>
      <MyFiles />
    </>
  );
}
