import { Badge, Box, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import type { LetterClassification } from '#shared/schemas/letter.ts';

/** The marking of a Confidential or Secret letter, shown on every card of it (decision 009). Normal shows none. */
export function ClassificationBadge({ classification }: { classification: LetterClassification }) {
  const { t } = useTranslation('letters');
  if (classification === 'Normal') return null;
  return (
    // Never shrunk or cut: the marking must be read in full on every card.
    <Badge
      color={classification === 'Secret' ? 'red.9' : '#9a3412'}
      variant="filled"
      radius="sm"
      style={{ flexShrink: 0, overflow: 'visible' }}
    >
      {t(`classification.${classification}`)}
    </Badge>
  );
}

/** One "Label: value" of a letter card, in a description list; an empty value shows 'N/A' (spec §2). */
export function Detail({ label, children }: { label: string; children: ReactNode }) {
  const { t } = useTranslation('letters');
  const empty = children === null || children === undefined || children === '';
  return (
    <Box>
      <Text component="dt" size="sm" c="gray.7" fw={600}>
        {label}
      </Text>
      <Text component="dd" m={0} style={{ overflowWrap: 'anywhere' }}>
        {empty ? t('na') : children}
      </Text>
    </Box>
  );
}
