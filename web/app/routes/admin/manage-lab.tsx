import { Alert, Button, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';

import { PageLoader } from '#web/components/page-loader.tsx';
import { PageTitle } from '#web/components/page-title.tsx';
import { PanelError } from '#web/components/panel-error.tsx';
import { useAcknowledgementSlot } from '#web/features/acknowledgements/components/publish-fields.tsx';
import { useGroupNames, useStaff } from '#web/features/groups/api.ts';
import { useOnlyLab } from '#web/features/labs/api.ts';
import { ManageDirectors } from '#web/features/labs/components/manage-directors.tsx';
import { ManageNoticesAndCirculars, ManageProducts } from '#web/features/labs/components/manage-lab-items.tsx';
import { UpdateLabForm } from '#web/features/labs/components/update-lab-form.tsx';
import { paths } from '#web/lib/paths.ts';

import type { LabAdminSection } from './sections.ts';

const TITLE: Record<LabAdminSection, string> = {
  lab: 'update.title',
  directors: 'admin.manageDirectors',
  notices: 'admin.manageNotices',
  products: 'admin.manageProducts',
};

/** Manage Directors with the staff to choose from (the groups feature's staff list, admin-only). */
function DirectorsSection({ labId }: { labId: string }) {
  const staff = useStaff('', 500);
  const options = (staff.data ?? []).map((s) => ({ value: s._id, label: s.name ? `${s.name} (${s.email})` : s.email }));
  return <ManageDirectors labId={labId} staff={options} staffLoading={staff.isPending} />;
}

const LAB_OWNER = { type: 'lab' } as const;

/**
 * Manage Notices & Circulars with "Requires acknowledgement": its audience may be some of the lab's groups
 * (the groups feature's names).
 */
function NoticesSection({ labId }: { labId: string }) {
  const groups = useGroupNames();
  const slot = useAcknowledgementSlot(LAB_OWNER, groups.data);
  return <ManageNoticesAndCirculars labId={labId} slot={slot} />;
}

/**
 * /admin/manage-lab — the lab admin panel (spec §2): it first fetches the single lab's id, then shows the section the
 * side menu chose (?section=directors | notices | products; Manage Labs by default).
 */
export default function ManageLabRoute() {
  const { t } = useTranslation('lab');
  const [params] = useSearchParams();
  const requested = params.get('section');
  const section: LabAdminSection = requested && requested in TITLE ? (requested as LabAdminSection) : 'lab';
  const lab = useOnlyLab();

  let body;
  if (lab.isPending) body = <PageLoader />;
  else if (lab.isError) body = <PanelError>{t('errors.labInformation')}</PanelError>;
  else if (!lab.data)
    body = (
      <Stack gap="md" align="flex-start">
        <Alert color="navy" variant="light">
          <Text c="gray.9">{t('admin.noLab')}</Text>
        </Alert>
        <Button component={Link} to={paths.admin.addLab}>
          {t('home.addLab')}
        </Button>
      </Stack>
    );
  else {
    const labId = lab.data._id;
    body =
      section === 'directors' ? (
        <DirectorsSection labId={labId} />
      ) : section === 'notices' ? (
        <NoticesSection labId={labId} />
      ) : section === 'products' ? (
        <ManageProducts labId={labId} />
      ) : (
        <UpdateLabForm labId={labId} />
      );
  }
  return (
    <>
      <PageTitle>{t(TITLE[section])}</PageTitle>
      {body}
    </>
  );
}
