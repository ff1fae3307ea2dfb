import type { NotificationData } from '@mantine/notifications';

// @mantine/notifications is loaded on first use, keeping it out of the initial bundle; the
// <Notifications /> container is mounted lazily by the app (see main.tsx).
export function notify(data: NotificationData): void {
  void import('@mantine/notifications').then(({ notifications }) => notifications.show(data));
}

export function notifySaved(message: string): void {
  notify({ color: 'green', message, autoClose: 3500 });
}

export function notifyError(message: string): void {
  notify({ color: 'red', message, autoClose: 6000 });
}
