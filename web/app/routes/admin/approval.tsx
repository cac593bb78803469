import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';

import { PageTitle } from '#web/components/page-title.tsx';
import { useGroupNames } from '#web/features/groups/api.ts';
import { useOnlyLab } from '#web/features/labs/api.ts';
import { PendingApprovals } from '#web/features/users/components/pending-approvals.tsx';
import { SsoLinkRequests } from '#web/features/users/components/sso-link-requests.tsx';

/**
 * /admin/approval: Pending User Approvals (spec §2), with the lab and the groups from their features, then the single
 * sign-on links waiting for an administrator (decision 090).
 */
export default function ApprovalRoute() {
  const { t } = useTranslation('people');
  const lab = useOnlyLab();
  const groups = useGroupNames();
  return (
    <>
      <PageTitle>{t('approval.title')}</PageTitle>
      <Stack gap="xl">
        <PendingApprovals lab={lab.data ?? null} groups={groups.data ?? []} groupsFailed={groups.isError} />
        <SsoLinkRequests />
      </Stack>
    </>
  );
}
