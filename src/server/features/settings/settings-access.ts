import { type Action, can } from '../../../shared/permissions';
import type { ServiceContext } from '../../context';
import { AppError } from '../../http/app-error';

/** Settings writes are for administrators (issue 11); checked first, before anything is read. */
export function requireCan(ctx: Pick<ServiceContext, 'user'>, action: Action): void {
  if (!can(ctx.user, action)) throw new AppError('FORBIDDEN');
}
