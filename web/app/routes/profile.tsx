import { useTranslation } from 'react-i18next';

import { PageTitle } from '#web/components/page-title.tsx';
import { SecuritySection } from '#web/features/auth/components/security-section.tsx';
import { ProfileDashboard } from '#web/features/users/components/profile-dashboard.tsx';

/** /profile: my profile dashboard (spec §2). */
export default function ProfileRoute() {
  const { t } = useTranslation('people');
  return (
    <>
      <PageTitle>{t('profile.title')}</PageTitle>
      <ProfileDashboard />
      {/* My Account → Security: the second factor (decision 064). */}
      <SecuritySection />
    </>
  );
}
