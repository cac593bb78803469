import { Alert, Button, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';

import { PageLoader } from '#web/components/page-loader.tsx';
import { PageTitle } from '#web/components/page-title.tsx';
import { useOnlyLab } from '#web/features/labs/api.ts';
import { AddLabForm } from '#web/features/labs/components/add-lab-form.tsx';
import { paths } from '#web/lib/paths.ts';

/**
 * /admin/add-labs — Add New Lab Information (spec §2). There is only one lab: once it exists the page says so and
 * points to Manage Labs (the server refuses a second lab either way).
 */
export default function AddLabsRoute() {
  const { t } = useTranslation('lab');
  const { t: common } = useTranslation('common');
  const lab = useOnlyLab();
  const navigate = useNavigate();
  return (
    <>
      <PageTitle>{common('pages.addLabs')}</PageTitle>
      {lab.isPending ? (
        <PageLoader />
      ) : lab.data ? (
        <Stack gap="md" maw={760}>
          <Alert color="navy" variant="light">
            <Text c="gray.9">{t('addLab.exists')}</Text>
          </Alert>
          <div>
            <Button component={Link} to={paths.admin.manageLab}>
              {t('addLab.goToManage')}
            </Button>
          </div>
        </Stack>
      ) : (
        <AddLabForm onCreated={() => void navigate(paths.admin.manageLab)} />
      )}
    </>
  );
}
