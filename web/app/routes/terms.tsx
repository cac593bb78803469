import { useTranslation } from 'react-i18next';

import { PageTitle } from '#web/components/page-title.tsx';
import { useSession } from '#web/features/auth/use-session.ts';
import { SiteDocument } from '#web/features/site/components/site-document.tsx';

/** /terms — the Terms page: public to read, an admin edits it in place (decision 019). */
export default function TermsRoute() {
  const { t } = useTranslation('site');
  const { isAdmin } = useSession();
  return (
    <>
      <PageTitle>{t('pages.terms')}</PageTitle>
      <SiteDocument pageKey="terms" canEdit={isAdmin} />
    </>
  );
}
