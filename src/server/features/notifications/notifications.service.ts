import type { ServiceContext } from '../../context';
import * as workflows from '../workflows/workflows.service';

/** The bell badge: the length of the signed-in user's notification list (workflows.md §6). */
export async function pendingTaskCount(ctx: ServiceContext): Promise<number> {
  return workflows.countPendingTasks(ctx.db, ctx.user.id);
}
