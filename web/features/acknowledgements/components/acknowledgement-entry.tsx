import { ActionIcon, Box, Indicator } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';

import { useAcknowledgementCount } from '../keys.ts';

function ChecklistIcon() {
  return (
    <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        d="M9 4h6M9 4a1 1 0 0 0-1 1v1h8V5a1 1 0 0 0-1-1M8 5H6a1 1 0 0 0-1 1v14a1 1 0 0 0 1 1h12a1 1 0 0 0 1-1V6a1 1 0 0 0-1-1h-2M8.5 13l2.5 2.5 4.5-5"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/**
 * "To acknowledge" in the header of a phone or narrow window (decision 074), where the navigation, whose "To
 * acknowledge" carries the count on wider screens, is folded into the menu: an icon with the number of notices and
 * circulars waiting for the person's acknowledgement (red, as the navigation's badges), shown while any wait. Its name
 * says the count to a screen reader ("To acknowledge, 3 pending, 1 overdue"); the number on it is for the eye.
 */
export function AcknowledgementEntry({ to }: { to: string }) {
  const { t } = useTranslation('acknowledgements');
  const count = useAcknowledgementCount(true);
  const pending = count.data?.pending ?? 0;
  const overdue = count.data?.overdue ?? 0;
  if (!pending) return null;
  const name = overdue ? t('entry.overdue', { count: pending, overdue }) : t('entry.pending', { count: pending });
  return (
    <Box hiddenFrom="md">
      <Indicator
        label={<span aria-hidden="true">{pending > 99 ? '99+' : pending}</span>}
        size={18}
        color="red.9"
        offset={4}
      >
        <ActionIcon component={NavLink} to={to} variant="subtle" color="navy" size="lg" aria-label={name}>
          <ChecklistIcon />
        </ActionIcon>
      </Indicator>
    </Box>
  );
}
