import { useTranslation } from 'react-i18next';

import { PageTitle } from '#web/components/page-title.tsx';
import { Delegation } from '#web/features/letters/components/delegation.tsx';

/** /dac/delegation — delegation of one's dak while away (decision 078); an administrator may do it for an officer. */
export default function DelegationRoute() {
  const { t } = useTranslation('letters');
  return (
    <>
      <PageTitle>{t('dak.delegation.title')}</PageTitle>
      <Delegation />
    </>
  );
}
