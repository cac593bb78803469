import { Box, Button, Indicator } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';

import { useAcknowledgementCount } from '../api.ts';

function ChecklistIcon() {
  return (
    <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
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
 * "To acknowledge" in the header of a signed-in person (issue 31 item 2): a link to their list, with the number of
 * notices and circulars still waiting for their acknowledgement (red while one is overdue). Its name says the count to
 * a screen reader ("To acknowledge, 3 pending, 1 overdue"). The number sits on its corner, as on the notification bell
 * beside it; its words show on wide screens only, where the header has room for them.
 */
export function AcknowledgementEntry({ to }: { to: string }) {
  const { t } = useTranslation('acknowledgements');
  const count = useAcknowledgementCount(true);
  const pending = count.data?.pending ?? 0;
  const overdue = count.data?.overdue ?? 0;
  const name = !pending
    ? t('entry.label')
    : overdue
      ? t('entry.overdue', { count: pending, overdue })
      : t('entry.pending', { count: pending });
  const colour = overdue ? 'red.9' : 'navy.8';
  return (
    <Indicator
      disabled={!pending}
      // Drawn for the eye: the link's name says it to a screen reader.
      label={<span aria-hidden="true">{pending > 99 ? '99+' : pending}</span>}
      size={18}
      color={colour}
      offset={4}
    >
      <Button
        component={NavLink}
        to={to}
        variant="subtle"
        color="navy"
        size="sm"
        px={7}
        aria-label={name}
        leftSection={<ChecklistIcon />}
        styles={{ section: { marginInlineEnd: 0 } }}
      >
        <Box component="span" visibleFrom="lg" ml={6}>
          {t('entry.label')}
        </Box>
      </Button>
    </Indicator>
  );
}
