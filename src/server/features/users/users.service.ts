import type { UserOption } from '../../../shared/schemas/users';
import type { ReadContext } from '../../context';
import * as queries from './users.queries';

/** The active staff, for pickers (assignees, mentions, the follow-up filter). Any signed-in user may read it. */
export function listOptions(ctx: ReadContext): Promise<UserOption[]> {
  return queries.listActiveUserOptions(ctx.db);
}
