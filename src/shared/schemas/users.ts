import { z } from 'zod';
import { USER_TYPES } from '../permissions';

/** A staff user as pickers show it (assignees, mentions, filters): active users only. */
export const userOption = z.object({
  id: z.uuid(),
  firstName: z.string(),
  lastName: z.string(),
  position: z.string(),
  userType: z.enum(USER_TYPES),
  avatarUrl: z.string().nullable(),
});
export type UserOption = z.infer<typeof userOption>;
export const userOptionsResponse = z.object({ users: z.array(userOption) });
