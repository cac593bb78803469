import { Badge, Box, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import type { EfileSummaryJson } from '#shared/schemas/efile.ts';

/** The classification marking of a file above Unclassified. */
export function EfileClassification({ classification }: { classification: EfileSummaryJson['classification'] }) {
  const { t } = useTranslation('efiles');
  if (classification === 'Unclassified') return null;
  return (
    <Badge color={classification === 'Secret' ? 'red.9' : 'orange.9'} variant="filled" radius="sm" tt="none">
      {t(`classification.${classification}`)}
    </Badge>
  );
}

/** Open, parked or closed, and "in transit" when sent and not yet received: in words, not colour alone. */
export function EfileState({ file }: { file: Pick<EfileSummaryJson, 'state' | 'inTransit'> }) {
  const { t } = useTranslation('efiles');
  return (
    <>
      <Badge
        color={file.state === 'closed' ? 'gray.8' : file.state === 'parked' ? 'violet.9' : 'blue.9'}
        radius="sm"
        tt="none"
      >
        {t(`state.${file.state}`)}
      </Badge>
      {file.inTransit && (
        <Badge color="gray.9" variant="outline" radius="sm" tt="none">
          {t('state.inTransit')}
        </Badge>
      )}
    </>
  );
}

/** A yellow (draft) or green (permanent) note's label: the colour is said in words too. */
export function NoteStateBadge({ permanent }: { permanent: boolean }) {
  const { t } = useTranslation('efiles');
  return permanent ? (
    <Badge color="#1e6b30" variant="filled" radius="sm" tt="none">
      {t('note.permanent')}
    </Badge>
  ) : (
    <Badge color="yellow.3" c="dark.9" variant="filled" radius="sm" tt="none">
      {t('note.draft')}
    </Badge>
  );
}

/** One "Label: value" of a file's header, in a description list. */
export function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box>
      <Text component="dt" size="sm" c="gray.7" fw={600}>
        {label}
      </Text>
      <Text component="dd" m={0} style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Box>
  );
}
