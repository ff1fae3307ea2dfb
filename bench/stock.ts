// Stock (issue 31, decision 0032) for `npm run bench`: Disponibilidad's grid of the project whose
// inventory is closest to 900 units (the whole project answers; its apartments too), the reservation
// form's picker searched by floor, and a reservation created with a unit (each request a free
// apartment of its own and a number of its own).
import type { RequestSpec } from 'autocannon';
import { PLAIN_RESERVATION_TERMS } from '../src/server/test/builders';
import { getJson, probeJson } from './api';

interface GridProject {
  id: string;
  units: number;
}

export interface StockTargets {
  project: GridProject;
  clientId: string;
  /** Free apartments, each reserved by one request of the creation's run. */
  freeApartments: string[];
  /** Of the project being reserved in. */
  projectId: string;
}

/** The project closest to 900 units, and free apartments (with a client) for the creations. */
export async function stockTargets(origin: string, cookie: string): Promise<StockTargets | null> {
  const projects = await probeJson<{ projects: GridProject[] }>(origin, cookie, '/api/stock/projects');
  const stocked = projects?.projects.filter((project) => project.units > 0) ?? [];
  if (stocked.length === 0) return null;
  const project = [...stocked].sort((a, b) => Math.abs(a.units - 900) - Math.abs(b.units - 900))[0]!;
  const clients = await getJson<{ rows: { id: string }[] }>(origin, cookie, '/api/clients?pageSize=1');
  // The project with the most free apartments (creations take them one by one).
  let best: { projectId: string; free: string[] } = { projectId: '', free: [] };
  for (const candidate of stocked.slice(0, 12)) {
    const grid = await getJson<{ units: { id: string }[] }>(
      origin,
      cookie,
      `/api/stock/projects/${candidate.id}/units?kind=apartment&status=Disponible`,
    );
    if (grid.units.length > best.free.length)
      best = { projectId: candidate.id, free: grid.units.map((u) => u.id) };
  }
  if (!clients.rows[0] || best.free.length === 0) return null;
  return { project, clientId: clients.rows[0].id, freeApartments: best.free, projectId: best.projectId };
}

function reservationBody(targets: StockTargets, unitId: string, number: string) {
  return JSON.stringify({
    reservationNumber: number,
    clientId: targets.clientId,
    projectId: targets.projectId,
    sellerId: null,
    reservationDate: '2026-11-20',
    ...PLAIN_RESERVATION_TERMS,
    apartmentUnitId: unitId,
  });
}

/** The endpoints to measure (in `bench/run.ts`'s shape). */
export function stockEndpoints(targets: StockTargets | null) {
  if (!targets) return [];
  const run = Date.now().toString(36);
  // The first free unit goes to the probe that checks the endpoint answers; the run takes the next.
  let next = 1;
  const create: RequestSpec = {
    method: 'POST',
    path: '/api/reservations',
    setupRequest: (request) => {
      const unitId = targets.freeApartments[next % targets.freeApartments.length]!;
      next += 1;
      return { ...request, body: reservationBody(targets, unitId, `BENCH-${run}-${next}`) };
    },
  };
  return [
    {
      key: 'stockGrid',
      label: `stock: Disponibilidad grid (${targets.project.units} units)`,
      method: 'GET' as const,
      path: `/api/stock/projects/${targets.project.id}/units`,
      target: 25,
    },
    {
      key: 'stockGridApartments',
      label: 'stock: Disponibilidad grid, apartments only',
      method: 'GET' as const,
      path: `/api/stock/projects/${targets.project.id}/units?kind=apartment`,
      target: 25,
    },
    {
      key: 'stockPicker',
      label: 'stock: unit picker searched by floor',
      method: 'GET' as const,
      path: `/api/stock/projects/${targets.project.id}/picker?kind=apartment&search=12`,
      target: 15,
    },
    {
      key: 'stockSearch',
      label: 'stock: global search "depto 1204"',
      method: 'GET' as const,
      path: `/api/search?q=${encodeURIComponent('depto 1204')}`,
      target: 25,
    },
    {
      key: 'stockReservation',
      label: 'stock: reservation created with a unit (a free unit each)',
      method: 'POST' as const,
      path: '/api/reservations',
      target: 30,
      body: reservationBody(targets, targets.freeApartments[0]!, `BENCH-${run}-0`),
      requests: [create],
    },
  ];
}
