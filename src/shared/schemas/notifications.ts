import { z } from 'zod';

/** GET /api/notifications/count: the signed-in user's pending tasks (workflows.md §6), for the bell badge. */
export const notificationCountResponse = z.object({ count: z.number().int().min(0) });
export type NotificationCount = z.infer<typeof notificationCountResponse>;
