// The sale flows' endpoints for `npm run bench` (issue 12): the list searched by a common surname, one
// flow's detail, and a task status change. The flow and the task are found through the API of the
// server being measured (the first flow of the surname's search, and an open task of its current
// stage), so the dataset needs no fixed ids.
import { COMMON_SURNAME } from '../scripts/demo-data';
import { getJson } from './api';

export interface SaleFlowTargets {
  flowId: string;
  taskId: string;
}

interface DetailTask {
  id: string;
  status: string;
}

/** A flow in progress of the surname's search and an open task of its current stage; null before issue 12. */
export async function saleFlowTargets(origin: string, cookie: string): Promise<SaleFlowTargets | null> {
  const probe = await fetch(`${origin}/api/sale-flows?search=${encodeURIComponent(COMMON_SURNAME)}`, {
    headers: { cookie, origin },
  });
  if (probe.status === 404) return null;
  const page = (await probe.json()) as { rows: { id: string; status: string }[] };
  for (const row of page.rows.filter((candidate) => candidate.status === 'in_progress')) {
    const { flow } = await getJson<{
      flow: { currentStageId: string | null; stages: { id: string; tasks: DetailTask[] }[] };
    }>(origin, cookie, `/api/sale-flows/${row.id}`);
    const stage = flow.stages.find((candidate) => candidate.id === flow.currentStageId);
    const task = stage?.tasks.find(
      (candidate) => candidate.status === 'pending' || candidate.status === 'in_progress',
    );
    if (task) return { flowId: row.id, taskId: task.id };
  }
  throw new Error(`No flow in progress with an open task among the '${COMMON_SURNAME}' search`);
}

/**
 * The endpoints to measure (in `bench/run.ts`'s shape). The status change alternates between 'En
 * Proceso' and 'Pendiente', so every request is a real write (lock, load, engine, set-based update).
 */
export function saleFlowEndpoints(targets: SaleFlowTargets | null) {
  const flowPath = targets
    ? `/api/sale-flows/${targets.flowId}`
    : '/api/sale-flows/00000000-0000-4000-8000-000000000000';
  const statusPath = targets ? `${flowPath}/tasks/${targets.taskId}/status` : `${flowPath}/tasks/x/status`;
  const status = (value: string) => JSON.stringify({ status: value });
  return [
    {
      key: 'saleFlowSearch',
      label: 'sale flow list (surname)',
      method: 'GET' as const,
      path: `/api/sale-flows?search=${encodeURIComponent(COMMON_SURNAME)}`,
      target: 15,
    },
    {
      key: 'saleFlowList',
      label: 'sale flow list',
      method: 'GET' as const,
      path: '/api/sale-flows?page=1&pageSize=25',
      target: 15,
    },
    { key: 'saleFlowDetail', label: 'sale flow detail', method: 'GET' as const, path: flowPath, target: 15 },
    {
      key: 'saleFlowTaskStatus',
      label: 'sale task status change',
      method: 'PUT' as const,
      path: statusPath,
      body: status('in_progress'),
      target: 20,
      requests: [
        { method: 'PUT', path: statusPath, body: status('pending') },
        { method: 'PUT', path: statusPath, body: status('in_progress') },
      ],
    },
  ];
}
