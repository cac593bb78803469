import { useTranslation } from 'react-i18next';

import { PageTitle } from '#web/components/page-title.tsx';
import { TrustedRoots } from '#web/features/signatures/components/trusted-roots.tsx';

/** /admin/trusted-roots — the roots of trusted signatures (decision 123). */
export default function AdminTrustedRootsRoute() {
  const { t } = useTranslation('signatures');
  return (
    <>
      <PageTitle>{t('roots.title')}</PageTitle>
      <TrustedRoots />
    </>
  );
}
