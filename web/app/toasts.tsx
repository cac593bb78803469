import '@mantine/notifications/styles.layer.css';
import { Notifications } from '@mantine/notifications';
import { TOAST_LIMIT } from '#shared/constants.ts';

/** The toast stack (at most 20: spec §9), loaded with the first toast (providers.tsx). */
export default function Toasts() {
  return <Notifications limit={TOAST_LIMIT} position="top-right" zIndex={1000} className="portal-toasts" />;
}
