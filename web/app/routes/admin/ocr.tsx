import { useTranslation } from 'react-i18next';

import { PageTitle } from '#web/components/page-title.tsx';
import { OcrAdmin } from '#web/features/site/components/ocr-admin.tsx';

/** /admin/ocr — text recognised in scans (decision 113): scans waiting and failed, the reasons, retry. Admin guard. */
export default function AdminOcrRoute() {
  const { t } = useTranslation('site');
  return (
    <>
      <PageTitle>{t('ocr.title')}</PageTitle>
      <OcrAdmin />
    </>
  );
}
