// Who may do what for `npm run bench` (issue 56, decisions 0060, 0061, 0076): the Permisos tab's read,
// a grant given and withdrawn, and the bank accounts' verification (issue 53, decision 0063) — a
// change by the administrator and its verification by a second person of the payments team, timed
// one pair at a time (a verification consumes its change, so it cannot be repeated by autocannon).
import { performance } from 'node:perf_hooks';
import type { RequestSpec } from 'autocannon';
import { login } from '../scripts/server-process';
import { getJson } from './api';

/** The grant the write toggles: harmless to the other endpoints (measured as the administrator). */
const GRANT_PATH = '/api/settings/permissions/audit.read/Supervisor';

function grantToggles(): RequestSpec[] {
  // Built on the run's request, so its cookie and origin headers stay.
  const toggle = (granted: boolean): RequestSpec => ({
    method: 'PUT',
    setupRequest: (request) => ({
      ...request,
      path: GRANT_PATH,
      headers: { ...request.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ granted }),
    }),
  });
  return [toggle(true), toggle(false)];
}

export function authorityEndpoints() {
  return [
    {
      key: 'permissions',
      label: 'settings: Permisos (every action and its holders)',
      method: 'GET' as const,
      path: '/api/settings/permissions',
      target: 25,
    },
    {
      key: 'permissionGrant',
      label: 'settings: a grant given and withdrawn (alternating)',
      method: 'PUT' as const,
      path: GRANT_PATH,
      // The probe before the runs sends it (a PUT without a body is refused with 400).
      body: JSON.stringify({ granted: true }),
      target: 30,
      requests: grantToggles(),
    },
  ];
}

/** The broker form's fields (brokerFields): what its update takes back from its read, with the version. */
const BROKER_FIELDS = [
  'rut',
  'name',
  'businessName',
  'constitutionDate',
  'constitutionNotary',
  'legalRepresentative',
  'legalRepresentativeRut',
  'commercialAddress',
  'commercialAddressCommune',
  'commercialContactName',
  'commercialContactPhone',
  'commercialContactEmail',
  'operationsContactName',
  'operationsContactPhone',
  'operationsContactEmail',
  'financeContactName',
  'financeContactPhone',
  'financeContactEmail',
  'kamName',
  'kamPhone',
  'kamEmail',
  'kamReceivesCommission',
  'bankName',
  'bankAccountType',
  'bankAccountNumber',
  'bankHolderName',
  'bankHolderRut',
  'paymentEmail',
  'version',
] as const;

const VERIFIER = { email: 'bench-verificador@inmoflujo.test', password: 'clave-verificador-bench' };

/** A second person of the payments team (created on the first run; the dataset keeps it). */
async function verifierCookie(origin: string, adminCookie: string): Promise<string> {
  const created = await fetch(`${origin}/api/settings/users`, {
    method: 'POST',
    headers: { cookie: adminCookie, origin, 'content-type': 'application/json' },
    body: JSON.stringify({
      ...VERIFIER,
      firstName: 'Verónica',
      lastName: 'Bench',
      position: 'Gestora de Pagos',
      userType: 'Gestor de Pagos',
      isSeller: false,
    }),
  });
  // 409: made by an earlier run on this dataset.
  if (!created.ok && created.status !== 409)
    throw new Error(`verifier: ${created.status} ${await created.text()}`);
  return login(origin, VERIFIER.email, VERIFIER.password);
}

async function send(origin: string, cookie: string, method: string, path: string, body: unknown) {
  const response = await fetch(`${origin}${path}`, {
    method,
    headers: { cookie, origin, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.json() as Promise<Record<string, unknown>>;
}

export interface VerificationTimes {
  pairs: number;
  /** Sorted, ms: the change (PUT) and its verification (POST) of each pair. */
  changes: number[];
  verifications: number[];
}

/**
 * A broker's bank account changed by the administrator and verified by the second person, `pairs`
 * times, one request at a time; the account number alternates so every change is one. Null when the
 * dataset has no broker.
 */
export async function measureVerifications(
  origin: string,
  adminCookie: string,
  pairs = Number(process.env.BENCH_VERIFY_PAIRS ?? 20),
): Promise<VerificationTimes | null> {
  const page = await getJson<{ rows: { id: string }[] }>(
    origin,
    adminCookie,
    '/api/brokers?page=1&pageSize=1',
  );
  const id = page.rows[0]?.id;
  if (!id) return null;
  const verifier = await verifierCookie(origin, adminCookie);
  const changes: number[] = [];
  const verifications: number[] = [];
  let broker = (await getJson<{ broker: Record<string, unknown> }>(origin, adminCookie, `/api/brokers/${id}`))
    .broker;
  for (let pair = 0; pair < pairs; pair++) {
    const body = Object.fromEntries(BROKER_FIELDS.map((field) => [field, broker[field]]));
    body.bankAccountNumber = pair % 2 === 0 ? '90001001' : '90001002';
    let start = performance.now();
    broker = (await send(origin, adminCookie, 'PUT', `/api/brokers/${id}`, body)).broker as Record<
      string,
      unknown
    >;
    changes.push(Math.round(performance.now() - start));
    start = performance.now();
    broker = (
      await send(origin, verifier, 'POST', `/api/brokers/${id}/bank-account/verify`, {
        version: broker.version,
      })
    ).broker as Record<string, unknown>;
    verifications.push(Math.round(performance.now() - start));
  }
  const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
  return { pairs, changes: sorted(changes), verifications: sorted(verifications) };
}
