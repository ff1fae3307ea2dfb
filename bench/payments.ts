// The payments' endpoints for `npm run bench` (issue 13): 'Pagos' searched by a common apartment
// number, one payment flow's detail, and a task completion. The flow and the task are found through the
// API of the server being measured (a flow in progress among the list's rows, and an open task of it),
// so the dataset needs no fixed ids.
import { COMMON_APARTMENT } from '../scripts/demo-data';
import { getJson, probeJson } from './api';

export interface PaymentTargets {
  flowId: string;
  taskId: string;
}

interface ListPage {
  rows: {
    firstFlow: { id: string; status: string } | null;
    secondFlow: { id: string; status: string } | null;
  }[];
}

interface DetailTask {
  id: string;
  status: string;
}

/** A payment flow in progress with an open task, found through the list; null if none (or before issue 13). */
export async function paymentTargets(origin: string, cookie: string): Promise<PaymentTargets | null> {
  // Payment flows run months after the sale: the apartment's search spans every date, and then the
  // list far from its newest rows.
  const pages = [
    ...Array.from({ length: 10 }, (_, index) => `search=${COMMON_APARTMENT}&page=${index + 1}`),
    ...Array.from({ length: 60 }, (_, index) => `page=${(index + 1) * 10}`),
  ];
  for (const query of pages) {
    const list = await probeJson<ListPage>(origin, cookie, `/api/payments?${query}&pageSize=100`);
    if (!list) return null;
    const flowIds = list.rows
      .flatMap((row) => [row.firstFlow, row.secondFlow])
      .filter((flow) => flow?.status === 'in_progress')
      .map((flow) => flow!.id);
    for (const flowId of flowIds) {
      const { flow } = await getJson<{ flow: { stages: { tasks: DetailTask[] }[] } }>(
        origin,
        cookie,
        `/api/payment-flows/${flowId}`,
      );
      const tasks = flow.stages.flatMap((stage) => stage.tasks);
      const open = tasks.find((task) => task.status === 'pending' || task.status === 'in_progress');
      // Not the flow's last unfinished task: completing it must not complete the flow (and date the payment).
      const unfinished = tasks.filter((task) => task.status !== 'completed').length;
      if (open && unfinished >= 2) return { flowId, taskId: open.id };
    }
  }
  // A small dataset may have none under way: its flow endpoints are then reported as not available.
  console.warn('No payment flow in progress with an open task found through /api/payments');
  return null;
}

/**
 * The endpoints to measure (in `bench/run.ts`'s shape). The completion alternates with a reopening
 * (the bench signs in as an administrator; reopening never cascades), so every request is a real write
 * through the engine: lock, load, apply, set-based update, and on completion the opening of the tasks
 * it unblocks the first time.
 */
export function paymentEndpoints(targets: PaymentTargets | null) {
  const flowPath = targets
    ? `/api/payment-flows/${targets.flowId}`
    : '/api/payment-flows/00000000-0000-4000-8000-000000000000';
  const statusPath = targets ? `${flowPath}/tasks/${targets.taskId}/status` : `${flowPath}/tasks/x/status`;
  const status = (value: string) => JSON.stringify({ status: value });
  return [
    {
      key: 'paymentSearch',
      label: 'payments list (apartment)',
      method: 'GET' as const,
      path: `/api/payments?search=${COMMON_APARTMENT}`,
      target: 15,
    },
    {
      key: 'paymentFlowDetail',
      label: 'payment flow detail',
      method: 'GET' as const,
      path: flowPath,
      target: 15,
    },
    {
      key: 'paymentTaskCompletion',
      label: 'payment task completion',
      method: 'PUT' as const,
      path: statusPath,
      body: status('completed'),
      target: 20,
      requests: [
        { method: 'PUT', path: statusPath, body: status('completed') },
        { method: 'PUT', path: statusPath, body: status('pending') },
      ],
    },
  ];
}
