import type { SessionUser } from '../../../shared/schemas/auth';
import type { Database } from '../../db/client';
import * as queries from './notifications.queries';

/** The bell badge: the signed-in user's own pending tasks (workflows.md §6). */
export async function pendingTaskCount(db: Database, user: SessionUser): Promise<number> {
  return queries.countPendingTasks(db, user.id);
}
