import { Badge, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

import { PageLoader } from '#web/components/page-loader.tsx';
import { PageTitle } from '#web/components/page-title.tsx';
import { PanelError } from '#web/components/panel-error.tsx';
import { needsStepUp } from '#web/lib/api-client.ts';
import { serverMessage } from '#web/lib/form-errors.ts';
import { useFormatDate } from '#web/lib/use-format-date.ts';

import { useEfile } from '../api.ts';
import { CorrespondencePane } from './correspondence-pane.tsx';
import { DraftsPane } from './drafts-pane.tsx';
import { EfileActions } from './efile-actions.tsx';
import { EfileMovements } from './efile-movements.tsx';
import { EfileClassification, EfileState, Field } from './efile-parts.tsx';
import { NotingPane } from './noting-pane.tsx';

/**
 * The file (/efiles/:id, decision 107): its header and the actions its state allows, then two panes — noting (N/…)
 * and correspondence (C/…) — side by side on a wide screen and stacked on a phone, and the movement history. A
 * guarded classified file brings up the step-up first (the API client asks for it); cancelled, the file stays shut.
 */
export function EfilePage({ id }: { id: string }) {
  const { t } = useTranslation('efiles');
  const { formatDateTime } = useFormatDate();
  const file = useEfile(id);
  const historyId = useId();
  if (file.isPending) return <PageLoader />;
  if (file.isError)
    return (
      <Stack>
        <PageTitle>{t('file.title')}</PageTitle>
        <PanelError>
          {needsStepUp(file.error) ? t('file.stepUpCancelled') : serverMessage(file.error, t('failed'))}
        </PanelError>
      </Stack>
    );
  const f = file.data;
  const holder = `${f.holder.name}${f.holder.designation ? `, ${f.holder.designation}` : ''}`;
  return (
    <Stack gap="lg">
      <Stack gap="xs">
        <PageTitle mb={0} style={{ overflowWrap: 'anywhere' }}>
          {f.number}
        </PageTitle>
        <Text size="lg" style={{ overflowWrap: 'anywhere' }}>
          {f.subject}
        </Text>
        <Group gap={6}>
          <EfileState file={f} />
          <EfileClassification classification={f.classification} />
          {f.can.copyOnly && (
            <Badge color="gray.8" variant="outline" radius="sm" tt="none">
              {t('file.copyOnly')}
            </Badge>
          )}
        </Group>
        <SimpleGrid component="dl" cols={{ base: 1, sm: 2, md: 3 }} spacing="sm" verticalSpacing="xs" m={0}>
          <Field label={t('fields.holder')}>{f.inTransit ? t('file.inTransitTo', { name: holder }) : holder}</Field>
          <Field label={t('fields.head')}>{`${f.head.code} — ${f.head.name}`}</Field>
          <Field label={t('fields.ownerGroup')}>{f.ownerGroup.name}</Field>
          <Field label={t('fields.creator')}>{f.creator.name}</Field>
          <Field label={t('fields.movedAt')}>{formatDateTime(f.movedAt)}</Field>
          <Field label={t('fields.route')}>
            {f.route.length ? f.route.map((p) => p.name).join(' → ') : t('file.noRoute')}
          </Field>
        </SimpleGrid>
        <EfileActions file={f} />
      </Stack>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <NotingPane file={f} />
        <CorrespondencePane file={f} />
      </SimpleGrid>
      <DraftsPane file={f} />
      <Card component="section" withBorder aria-labelledby={historyId}>
        <Title order={2} size="h4" id={historyId} mb="sm">
          {t('history.title')}
        </Title>
        <EfileMovements fileId={f._id} />
      </Card>
    </Stack>
  );
}
