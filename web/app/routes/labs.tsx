import { Anchor, Card, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { EmptyState } from '#web/components/empty-state.tsx';
import { PageLoader } from '#web/components/page-loader.tsx';
import { PageTitle } from '#web/components/page-title.tsx';
import { PanelError } from '#web/components/panel-error.tsx';
import { useLabs } from '#web/features/labs/api.ts';
import { TextPoints } from '#web/features/labs/components/lab-panels.tsx';
import { paths } from '#web/lib/paths.ts';

/** /labs — the list of labs (GET /api/labs; there is one): name, domain, about, and a link to its home page. */
export default function LabsRoute() {
  const { t } = useTranslation('lab');
  const labs = useLabs();
  return (
    <>
      <PageTitle>{t('labsPage.title')}</PageTitle>
      {labs.isPending ? (
        <PageLoader />
      ) : labs.isError ? (
        <PanelError>{t('errors.labInformation')}</PanelError>
      ) : labs.data.length === 0 ? (
        <EmptyState>{t('labsPage.empty')}</EmptyState>
      ) : (
        <Stack gap="lg">
          {labs.data.map((lab) => (
            <Card key={lab._id} withBorder radius="md" padding="lg" component="article">
              <Title order={2} size="h3">
                {lab.name}
              </Title>
              {lab.domain && (
                <Text fw={600} c="navy.8" mb="sm">
                  {lab.domain}
                </Text>
              )}
              <TextPoints text={lab.about} />
              <Anchor component={Link} to={paths.home} mt="md" fw={600}>
                {t('labsPage.openHome')}
              </Anchor>
            </Card>
          ))}
        </Stack>
      )}
    </>
  );
}
