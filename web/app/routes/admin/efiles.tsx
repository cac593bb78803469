import { useTranslation } from 'react-i18next';

import { PageTitle } from '#web/components/page-title.tsx';
import { EfileSettings } from '#web/features/efiles/components/efile-settings.tsx';

/** /admin/efiles — e-File settings (decision 107): the numbering scheme and the heads. */
export default function AdminEfilesRoute() {
  const { t } = useTranslation('efiles');
  return (
    <>
      <PageTitle>{t('admin.title')}</PageTitle>
      <EfileSettings />
    </>
  );
}
