// The approvals' endpoints for `npm run bench` (issue 15): the inbox of the signed-in user's open approval
// tasks (the spec's 'VB Jefe Inversiones' view, every approval of the chain, and the user with the most
// pending tasks of the dataset), the chain's approvals with their counts, and one approval's detail. The
// approval is found through the API of the server being measured, so the dataset needs no fixed ids.
import { probeJson } from './api';

export interface ApprovalTargets {
  taskId: string;
}

/** An open approval of the signed-in user (any of the chain); null if none (or before issue 15). */
export async function approvalTargets(origin: string, cookie: string): Promise<ApprovalTargets | null> {
  const page = await probeJson<{ rows: { taskId: string }[] }>(
    origin,
    cookie,
    '/api/approvals?approval=todas&pageSize=1',
  );
  const taskId = page?.rows[0]?.taskId;
  if (!taskId) {
    console.warn('No open approval of the administrator found through /api/approvals');
    return null;
  }
  return { taskId };
}

/** The endpoints to measure (in `bench/run.ts`'s shape). Reads only: a decision is a task completion. */
export function approvalEndpoints(targets: ApprovalTargets | null) {
  const detailPath = `/api/approvals/${targets?.taskId ?? '00000000-0000-4000-8000-000000000000'}`;
  return [
    {
      key: 'approvals',
      label: "approvals list ('VB Jefe Inversiones')",
      method: 'GET' as const,
      path: '/api/approvals',
      target: 15,
    },
    {
      key: 'approvalsAll',
      label: 'approvals list (the whole chain)',
      method: 'GET' as const,
      path: '/api/approvals?approval=todas',
      target: 15,
    },
    {
      key: 'approvalsBadgeUser',
      label: 'approvals list (user with most pending tasks)',
      method: 'GET' as const,
      path: '/api/approvals?approval=todas',
      as: 'badge' as const,
      target: 15,
    },
    {
      key: 'approvalKinds',
      label: 'approvals filter (the chain with counts)',
      method: 'GET' as const,
      path: '/api/approvals/kinds',
      target: 15,
    },
    {
      key: 'approvalDetail',
      label: 'approval detail',
      method: 'GET' as const,
      path: detailPath,
      target: 25,
    },
  ];
}
