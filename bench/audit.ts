// The audit trail for `npm run bench` (issue 17): a client edit — every request a real, versioned write
// that leaves one log row — to compare with its figures before the log; the 'Historial' of the flow
// whose task the status-change endpoint moves (so it holds many rows); the Auditoría's first page,
// by user and by text. Targets are found through the API of the server being measured.
import type { RequestSpec } from 'autocannon';
import { getJson, probeJson } from './api';

interface EditableClient {
  id: string;
  rut: string;
  firstName: string;
  lastName: string;
  birthDate: string;
  phone: string | null;
  email: string | null;
  version: number;
}

export interface AuditTargets {
  /** The clients the edits take turns on (more than the runs' connections: see clientEdits). */
  clients: EditableClient[];
  /** A flow with history (the sale flow whose task the status-change endpoint moves). */
  flowId: string | null;
  /** An administrator who appears in the log. */
  userId: string | null;
}

/**
 * Clients to edit, the flow with history and a user of the log (null before issue 17: its
 * endpoints then answer 404 and are reported as not available, while the client edit is measured
 * as before the log).
 */
export async function auditTargets(
  origin: string,
  cookie: string,
  flowId: string | null,
): Promise<AuditTargets> {
  const users = await probeJson<{ users: { id: string }[] }>(origin, cookie, '/api/audit/users');
  const page = await getJson<{ rows: { id: string }[] }>(origin, cookie, '/api/clients?page=1&pageSize=50');
  const clients = await Promise.all(
    page.rows.map(
      async (row) =>
        (await getJson<{ client: EditableClient }>(origin, cookie, `/api/clients/${row.id}`)).client,
    ),
  );
  return { clients, flowId, userId: users?.users[0]?.id ?? null };
}

/**
 * The client edit as one versioned PUT. autocannon gives a connection a fresh context after each
 * request, so clients are lent from a pool instead: a request borrows an idle client, sends the
 * version its last answer gave back (alternating the phone so every request writes), and its answer
 * returns it. A request still in flight when a run stops never returns its client (its version moved
 * unseen), so the pool holds more clients than the runs' connections. The body holds the form's
 * fields only (the API refuses any other key).
 */
function clientEdits(clients: EditableClient[]): RequestSpec[] {
  const idle = [...clients];
  return [
    {
      method: 'PUT',
      setupRequest(request, context) {
        const client = idle.shift() ?? clients[0]!;
        context.client = client;
        const { id, rut, firstName, lastName, birthDate, phone, email, version } = client;
        return {
          ...request,
          path: `/api/clients/${id}`,
          headers: { ...request.headers, 'content-type': 'application/json' },
          body: JSON.stringify({
            rut,
            firstName,
            lastName,
            birthDate,
            email,
            version,
            phone: phone === '+56 9 1111 1111' ? '+56 9 2222 2222' : '+56 9 1111 1111',
          }),
        };
      },
      onResponse(status, body, context) {
        // The context is still this request's: autocannon renews it only for the next one.
        idle.push(
          status === 200
            ? (JSON.parse(body) as { client: EditableClient }).client
            : (context.client as EditableClient),
        );
      },
    },
  ];
}

export function auditEndpoints(targets: AuditTargets) {
  const none = '00000000-0000-4000-8000-000000000000';
  const first = targets.clients[0];
  return [
    {
      key: 'clientEdit',
      label: 'client edit (versioned, one log row)',
      method: 'GET' as const,
      path: `/api/clients/${first?.id ?? none}`,
      target: 20,
      ...(first ? { requests: clientEdits(targets.clients) } : {}),
    },
    {
      key: 'auditHistory',
      label: "audit: a flow's Historial",
      method: 'GET' as const,
      path: `/api/audit/history/flows/${targets.flowId ?? none}`,
      target: 25,
    },
    {
      key: 'auditLog',
      label: 'audit: the log, first page',
      method: 'GET' as const,
      path: '/api/audit',
      target: 25,
    },
    {
      key: 'auditByUser',
      label: 'audit: the log of one user',
      method: 'GET' as const,
      path: `/api/audit?user=${targets.userId ?? none}`,
      target: 25,
    },
    {
      key: 'auditText',
      label: 'audit: the log searched by text',
      method: 'GET' as const,
      path: '/api/audit?search=valenzuela',
      target: 100,
    },
  ];
}
