/** The bell's notifications (server/modules/notifications). */
export const notifications = {
  not_found: 'Notification not found.',
} as const;
