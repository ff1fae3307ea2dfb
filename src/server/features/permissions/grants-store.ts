import {
  type Action,
  type Grants,
  isAction,
  NO_GRANTS,
  USER_TYPES,
  type UserType,
} from '../../../shared/permissions';
import type { Executor } from '../../db/client';
import type { EventBus } from '../../events/event-bus';
import { findGrants, type GrantRow } from './permissions.queries';

/**
 * The office's grants as this instance knows them (decision 0061): loaded when the app starts, read
 * by every request (the session's user carries the actions they give), and loaded again after a
 * change here and when another instance says one was made (`permissions-changed`) or events may have
 * been missed (`resync`). A change therefore takes effect on the next request, on every instance.
 */
export interface GrantsStore {
  current(): Grants;
  /** Reads the table again; the newest read started wins over a slower, older one. */
  reload(): Promise<void>;
  close(): void;
}

/** The rows as the catalogue's `Grants`: rows for an action or user type it no longer has are ignored. */
export function grantsOf(rows: readonly GrantRow[]): Grants {
  const grants = new Map<Action, Map<UserType, boolean>>();
  for (const row of rows) {
    if (!isAction(row.action) || !(USER_TYPES as readonly string[]).includes(row.userType)) continue;
    let byType = grants.get(row.action);
    if (!byType) {
      byType = new Map();
      grants.set(row.action, byType);
    }
    byType.set(row.userType as UserType, row.granted);
  }
  return grants.size === 0 ? NO_GRANTS : grants;
}

export async function loadGrantsStore(
  db: Executor,
  events: EventBus,
  log: { warn(object: object, message: string): void },
): Promise<GrantsStore> {
  let grants = grantsOf(await findGrants(db));
  let started = 0;
  let applied = 0;
  const reload = async () => {
    const mine = ++started;
    const fresh = grantsOf(await findGrants(db));
    if (mine > applied) {
      applied = mine;
      grants = fresh;
    }
  };
  const unsubscribe = events.subscribe((event) => {
    if (event.type !== 'permissions-changed' && event.type !== 'resync') return;
    reload().catch((error) => log.warn({ err: error }, 'permissions: could not reload the grants'));
  });
  return { current: () => grants, reload, close: unsubscribe };
}
