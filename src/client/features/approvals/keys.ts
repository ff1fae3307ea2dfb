// The approvals' query keys apart from their fetchers: the live updates in the shell import them, and
// api.ts (with its fetchers and hooks) stays in the screens' chunks (decision 0005).
import type { PageParams } from '../../../shared/schemas/common';
import { flowKeys } from '../sale-flows/keys';

export interface ApprovalListQuery extends PageParams {
  search?: string;
  /** An approval's name, or 'todas'; absent: 'VB Jefe Inversiones'. */
  approval?: string;
}

/**
 * The approvals' cached reads live under the payment flows' root: a decision changes a payment flow,
 * and any change of a payment flow (here or on its screen) refreshes the inbox.
 */
export const approvalKeys = {
  all: [...flowKeys.all('payment'), 'approvals'] as const,
  list: (query: ApprovalListQuery) => [...approvalKeys.all, 'list', query] as const,
  kinds: () => [...approvalKeys.all, 'kinds'] as const,
  detail: (taskId: string) => [...approvalKeys.all, 'detail', taskId] as const,
};
