import { useTranslation } from 'react-i18next';

import { PageTitle } from '#web/components/page-title.tsx';
import { DispatchRegister } from '#web/features/dispatch/components/dispatch-register.tsx';

/** /dispatch-register — the lab's outward letters (decision 120). */
export default function DispatchRegisterRoute() {
  const { t } = useTranslation('dispatch');
  return (
    <>
      <PageTitle>{t('register.title')}</PageTitle>
      <DispatchRegister />
    </>
  );
}
