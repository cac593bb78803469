import '@mantine/notifications/styles.layer.css';

import { useMediaQuery } from '@mantine/hooks';
import { Notifications } from '@mantine/notifications';

import { TOAST_LIMIT } from '#shared/constants.ts';

/**
 * The toast stack (at most 20: spec §9), loaded with the first toast (providers.tsx). Top right, below the header; on a
 * narrow screen, where a toast spans the whole width, at the bottom, so it does not cover the open navigation drawer
 * and the control in focus there (decision 032: "Login successful!" hid the drawer's search field at 390 px).
 */
export default function Toasts() {
  const narrow = useMediaQuery('(max-width: 48em)', false, { getInitialValueInEffect: false });
  return (
    <Notifications
      limit={TOAST_LIMIT}
      position={narrow ? 'bottom-center' : 'top-right'}
      zIndex={1000}
      className="portal-toasts"
    />
  );
}
