import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import type { NotificationCountJson, NotificationListJson } from '#shared/schemas/notification.ts';

import { api } from '#web/lib/api-client.ts';

export const notificationKeys = {
  all: ['notifications'] as const,
  count: ['notifications', 'count'] as const,
  list: ['notifications', 'list'] as const,
};

/** GET /api/notifications/count: the bell's number, refreshed every minute. */
export const useNotificationCount = (enabled: boolean) =>
  useQuery({
    queryKey: notificationKeys.count,
    queryFn: ({ signal }) => api.get<NotificationCountJson>('/api/notifications/count', { signal }),
    enabled,
    refetchInterval: 60_000,
  });

/** GET /api/notifications: the newest notices, loaded when the bell is opened. */
export const useNotifications = (enabled: boolean) =>
  useQuery({
    queryKey: notificationKeys.list,
    queryFn: ({ signal }) => api.get<NotificationListJson>('/api/notifications', { signal }),
    enabled,
  });

function useNotificationAction<I>(call: (input: I) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notificationKeys.all }),
  });
}

/** POST /api/notifications/{id}/read. */
export const useReadNotification = () =>
  useNotificationAction((id: string) => api.post(`/api/notifications/${id}/read`));
/** POST /api/notifications/read-all. */
export const useReadAllNotifications = () =>
  useNotificationAction((_: void) => api.post('/api/notifications/read-all'));
