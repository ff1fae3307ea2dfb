import type { UserOption } from '../../../shared/schemas/users';
import type { ReadContext } from '../../context';
import type { Executor } from '../../db/client';
import * as queries from './users.queries';

/** The active staff, for pickers (assignees, mentions, the follow-up filter). Any signed-in user may read it. */
export function listOptions(ctx: ReadContext): Promise<UserOption[]> {
  return queries.listActiveUserOptions(ctx.db);
}

/** The active sellers, by name (in the caller's transaction when given one). */
export function listSellers(db: Executor) {
  return queries.listActiveSellers(db);
}

/** Whether a user may be a reservation's seller or the default seller: an active seller. */
export function isActiveSeller(db: Executor, id: string): Promise<boolean> {
  return queries.activeSellerExists(db, id);
}
