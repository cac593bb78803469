import { Alert, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

import { PageTitle } from '#web/components/page-title.tsx';
import { AuditTrail } from '#web/features/audit-trail/components/audit-trail.tsx';
import { ClockStatus } from '#web/features/audit-trail/components/clock-status.tsx';
import { WriteCheckpointButton } from '#web/features/audit-trail/components/write-checkpoint.tsx';
import { writesAuditCheckpoints } from '#web/lib/access.policy.ts';
import { useStoredLogin } from '#web/lib/auth-storage.ts';

/**
 * /admin/audit-trail: Admin → Audit Trail (decision 069). Admins, and directors read-only (the guard,
 * RequireAuditReader); an admin also writes a checkpoint on demand (decision 068), a director is told they read it and
 * that checkpoints are the administrators'.
 */
export default function AuditTrailRoute() {
  const { t } = useTranslation('audit');
  const { user } = useStoredLogin();
  const admin = writesAuditCheckpoints(user?.role);
  return (
    <>
      <PageTitle>{t('title')}</PageTitle>
      <Text mb="md" maw="70ch">
        {t('intro')}
      </Text>
      {!admin && (
        <Alert color="blue" variant="light" mb="md">
          <Text c="gray.9" size="sm">
            {t('readOnly')}
          </Text>
        </Alert>
      )}
      <ClockStatus />
      <AuditTrail actions={admin ? <WriteCheckpointButton /> : undefined} />
    </>
  );
}
