import { Button, Card, Collapse, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { LetterJson } from '#shared/schemas/letter.ts';

import { SignaturePanelOnDemand } from '#web/components/signature-panel.tsx';
import { useFormatDate } from '#web/lib/use-format-date.ts';

import { MarkLetterDialog } from './dak-dialogs.tsx';
import { Whereabouts } from './dak-parts.tsx';
import { LetterDownload } from './letter-download.tsx';
import { LetterExtras } from './letter-extras.tsx';
import { LetterHistory } from './letter-history.tsx';
import { LetterMovements } from './letter-movements.tsx';
import { ClassificationBadge, Detail } from './letter-parts.tsx';

/**
 * One letter of Letters & Correspondence (spec §2): every field, 'N/A' for a missing value, 'No Subject', the
 * classification marking, 'Download File' when there is a file, and the letter's history on demand. `actions`
 * adds buttons (the recycle bin's Restore and Delete permanently).
 */
export function LetterCard({ letter, actions }: { letter: LetterJson; actions?: ReactNode }) {
  const { formatDate, formatDateTime } = useFormatDate();
  const { t } = useTranslation('letters');
  const [showHistory, setShowHistory] = useState(false);
  const [marking, setMarking] = useState(false);
  const headingId = useId();
  const historyId = useId();
  const subject = letter.letterSub || t('noSubject');
  return (
    <Card component="article" withBorder radius="md" padding="lg" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Title order={2} size="h4" id={headingId} style={{ overflowWrap: 'anywhere' }}>
            {subject}
          </Title>
          <ClassificationBadge classification={letter.classification} />
        </Group>
        <SimpleGrid component="dl" cols={{ base: 2, md: 3 }} spacing="sm" verticalSpacing="xs" m={0}>
          <Detail label={t('fields.letterId')}>{letter.letterId}</Detail>
          <Detail label={t('fields.docketNo')}>{letter.docketNo}</Detail>
          <Detail label={t('fields.letterNo')}>{letter.letterNo}</Detail>
          <Detail label={t('fields.letterDate')}>{formatDate(letter.letterDate, '')}</Detail>
          <Detail label={t('fields.docketDate')}>{formatDate(letter.docketDate, '')}</Detail>
          <Detail label={t('fields.category')}>{letter.category}</Detail>
          <Detail label={t('fields.establishment')}>{letter.establishment}</Detail>
          <Detail label={t('fields.letterLanguage')}>{letter.letterLanguage}</Detail>
          <Detail label={t('fields.letterCommunBy')}>{letter.letterCommunBy}</Detail>
          <Detail label={t('fields.uploadedBy')}>{letter.uploadedBy?.name}</Detail>
          <Detail label={t('fields.uploadedOn')}>{formatDateTime(letter.letterUploadDate, '')}</Detail>
          {letter.deletedAt && (
            <Detail label={t('bin.deletedOn')}>
              {t('bin.deletedBy', {
                when: formatDateTime(letter.deletedAt),
                name: letter.deletedBy?.name ?? t('unknown'),
              })}
            </Detail>
          )}
        </SimpleGrid>
        <Whereabouts dak={letter.dak} />
        <Group gap="sm">
          {letter.fileName && <LetterDownload letter={letter} />}
          <Button
            variant="default"
            onClick={() => setShowHistory((v) => !v)}
            aria-expanded={showHistory}
            aria-controls={historyId}
          >
            {showHistory ? t('history.hide') : t('history.show')}
          </Button>
          {letter.canMark && !letter.deletedAt && (
            <Button
              variant="light"
              onClick={() => setMarking(true)}
              aria-label={t('dak.mark.label', { letterId: letter.letterId })}
            >
              {t('dak.mark.button')}
            </Button>
          )}
          {!letter.deletedAt && <LetterExtras letter={letter} />}
          {actions}
        </Group>
        {letter.fileUrl && /\.pdf$/i.test(letter.originalName ?? '') && (
          <SignaturePanelOnDemand fileUrl={letter.fileUrl} name={letter.originalName ?? letter.letterId} />
        )}
        {marking && <MarkLetterDialog letter={letter} onClose={() => setMarking(false)} />}
        <Collapse expanded={showHistory} id={historyId}>
          {showHistory && (
            <Stack gap="xs">
              <Text fw={600} size="sm">
                {t('history.title')}
              </Text>
              <LetterHistory letterId={letter._id} />
              <Text fw={600} size="sm">
                {t('dak.movement.title')}
              </Text>
              <LetterMovements letterId={letter._id} letterRef={letter.letterId} />
            </Stack>
          )}
        </Collapse>
      </Stack>
    </Card>
  );
}
