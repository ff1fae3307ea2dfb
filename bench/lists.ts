// The lists' orders and filters for `npm run bench` (issue 10, decision 0019): reservations of one
// project ordered by client, reservations of the newest month ordered by number, clients ordered by
// name, the brokers of one KAM ordered by razón social. The project, the month and the KAM are read
// through the API of the server being measured, so the dataset needs no fixed ids.
import { getJson } from './api';

export interface ListTargets {
  projectId: string;
  /** The month up to the newest reservation's date ('YYYY-MM-DD' both). */
  fromDate: string;
  toDate: string;
  kam: string;
}

/** A project, the month up to the newest reservation, and a KAM of the measured dataset. */
export async function listTargets(origin: string, cookie: string): Promise<ListTargets> {
  const [options, newest, kams] = await Promise.all([
    getJson<{ projects: { id: string }[] }>(origin, cookie, '/api/reservations/form-options'),
    getJson<{ rows: { reservationDate: string }[] }>(origin, cookie, '/api/reservations?pageSize=1'),
    getJson<{ kams: string[] }>(origin, cookie, '/api/brokers/kams'),
  ]);
  const toDate = newest.rows[0]?.reservationDate;
  if (!options.projects[0] || !toDate || !kams.kams[0]) {
    throw new Error('The dataset has no project, reservation or KAM to measure the lists with');
  }
  const from = new Date(`${toDate}T00:00:00Z`);
  from.setUTCDate(from.getUTCDate() - 30);
  return {
    projectId: options.projects[0].id,
    fromDate: from.toISOString().slice(0, 10),
    toDate,
    kam: kams.kams[0],
  };
}

/** The endpoints to measure (in `bench/run.ts`'s shape). */
export function listEndpoints(targets: ListTargets) {
  return [
    {
      key: 'reservationsProjectByClient',
      label: 'reservations: a project by client',
      method: 'GET' as const,
      path: `/api/reservations?projectId=${targets.projectId}&sort=clientName&direction=asc`,
      target: 15,
    },
    {
      key: 'reservationsMonthByNumber',
      label: 'reservations: a month by number',
      method: 'GET' as const,
      path: `/api/reservations?fromDate=${targets.fromDate}&toDate=${targets.toDate}&sort=reservationNumber&direction=desc`,
      target: 15,
    },
    {
      key: 'clientsByName',
      label: 'clients by name',
      method: 'GET' as const,
      path: '/api/clients?sort=fullName&direction=asc',
      target: 15,
    },
    {
      key: 'brokersOfKam',
      label: 'brokers of a KAM by razón social',
      method: 'GET' as const,
      path: `/api/brokers?kam=${encodeURIComponent(targets.kam)}&sort=businessName&direction=asc`,
      target: 15,
    },
  ];
}
