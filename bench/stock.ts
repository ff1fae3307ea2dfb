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
  /** Free apartments with their project, each reserved by one request of the creation's run. */
  freeApartments: FreeApartment[];
}

interface FreeApartment {
  projectId: string;
  unitId: string;
}

/**
 * Enough free apartments for a run at 10 connections (~150 creations a second for ~25 s with the
 * warm-ups): a run that wrapped around to units it had taken measured refusals (409), not creations.
 */
const FREE_APARTMENTS_WANTED = 6_000;

/** The project closest to 900 units, and free apartments (with a client) for the creations. */
export async function stockTargets(origin: string, cookie: string): Promise<StockTargets | null> {
  const projects = await probeJson<{ projects: GridProject[] }>(origin, cookie, '/api/stock/projects');
  const stocked = projects?.projects.filter((project) => project.units > 0) ?? [];
  if (stocked.length === 0) return null;
  const project = [...stocked].sort((a, b) => Math.abs(a.units - 900) - Math.abs(b.units - 900))[0]!;
  const clients = await getJson<{ rows: { id: string }[] }>(origin, cookie, '/api/clients?pageSize=1');
  // Free apartments across projects (creations take them one by one, each run its own).
  const free: FreeApartment[] = [];
  for (const candidate of stocked) {
    if (free.length >= FREE_APARTMENTS_WANTED) break;
    const grid = await getJson<{ units: { id: string }[] }>(
      origin,
      cookie,
      `/api/stock/projects/${candidate.id}/units?kind=apartment&status=Disponible`,
    );
    for (const unit of grid.units) free.push({ projectId: candidate.id, unitId: unit.id });
  }
  if (!clients.rows[0] || free.length === 0) return null;
  return { project, clientId: clients.rows[0].id, freeApartments: free };
}

function reservationBody(targets: StockTargets, apartment: FreeApartment, number: string) {
  return JSON.stringify({
    reservationNumber: number,
    clientId: targets.clientId,
    projectId: apartment.projectId,
    sellerId: null,
    reservationDate: '2026-11-20',
    ...PLAIN_RESERVATION_TERMS,
    apartmentUnitId: apartment.unitId,
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
      const apartment = targets.freeApartments[next % targets.freeApartments.length]!;
      next += 1;
      return { ...request, body: reservationBody(targets, apartment, `BENCH-${run}-${next}`) };
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
