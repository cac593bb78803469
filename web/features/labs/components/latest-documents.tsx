import { Anchor, Card, Center, Loader, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { PanelError } from '#web/components/panel-error.tsx';
import { paths } from '#web/lib/paths.ts';

import { newestDocuments, useLabDocuments } from '../api.ts';
import { DocumentEntry } from './lab-panels.tsx';

/** How many of the newest notices and circulars the box shows. */
const LATEST_COUNT = 3;

/**
 * The latest notices and circulars box beside the gallery: the newest still-valid ones (the same answer the News
 * Flash uses, so no second request), with a link to the Notices & Circular tab for the rest.
 */
export function LatestDocuments({ labId }: { labId: string }) {
  const { t } = useTranslation('lab');
  const documents = useLabDocuments(labId, { current: true });
  const items = newestDocuments(documents.data).slice(0, LATEST_COUNT);
  return (
    <Card withBorder radius="md" padding="md" h="100%" component="section" aria-labelledby="latest-documents-heading">
      <Title order={2} size="h4" mb="sm" id="latest-documents-heading">
        {t('latest.title')}
      </Title>
      {documents.isPending ? (
        <Center py="md" role="status">
          <Loader size="sm" role="img" aria-label={t('loading')} />
        </Center>
      ) : documents.isError ? (
        <PanelError>{t('errors.fetchLabData')}</PanelError>
      ) : items.length === 0 ? (
        <Text c="gray.8">{t('latest.empty')}</Text>
      ) : (
        <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
          {items.map((item) => (
            <li key={item._id}>
              <Text span size="xs" fw={700} tt="uppercase" c="red.9">
                {t(item.kind === 'notice' ? 'latest.notice' : 'latest.circular')}
              </Text>
              <DocumentEntry item={item} />
            </li>
          ))}
        </Stack>
      )}
      <Anchor component={Link} to={`${paths.home}?tab=notices`} preventScrollReset mt="md" size="sm" fw={600}>
        {t('latest.viewAll')}
      </Anchor>
    </Card>
  );
}
