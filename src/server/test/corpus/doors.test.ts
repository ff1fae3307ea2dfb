import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { IMPORT_FIELDS, IMPORT_KINDS } from '../../../shared/schemas/imports';
import { queryRows } from '../../db/client';
import { type Agent, errorOf, loginAs, type TestContext, useTestApp } from '../app';
import { createBroker, createProject, createReservation, seedUfValues } from '../builders';
import { createCommission, createSaleFlow, FlowDriver } from '../flow-builders';
import { upload } from '../imports';
import { FIRST_PAYMENT_BEFORE_INVOICE } from '../payment-flow-tasks';
import { bytesOf, CORPUS, type CorpusFile, type Door, FILES_DIR, isCommitted } from './corpus';

/**
 * Every upload door walked with the corpus (issue 52, decision 0049): each file a door names is
 * refused with a Spanish 4xx or read, a refusal writes nothing (the rows of the tables the door
 * writes, counted before and after), and the server answers /api/health after each door. A new door
 * is one more entry of DOORS; a new file, one more entry of CORPUS.
 */

const NOW = new Date('2026-11-20T15:00:00Z');
const OCTET = { 'content-type': 'application/octet-stream' };
const base64 = (bytes: Buffer) => bytes.toString('base64');

/** What the door answered: its final status and, for a refusal, the Spanish message. */
interface Outcome {
  status: number;
  message?: string;
}

interface Scene {
  admin: Agent;
  payments: Agent;
  projectId: string;
  reservationId: string;
  invoiceBase: string;
  documentTypes: { other: string; brokerInvoice: string };
}

interface DoorSpec {
  /** The tables the door writes: their rows are counted before and after each file. */
  tables: readonly string[];
  /** Sends the file through the door; each answer it gives (one per step) is checked. */
  send(scene: Scene, file: CorpusFile, bytes: Buffer): Promise<LightMyRequestResponse[]>;
}

/** Every field of a kind mapped to the first column: the rows are then read whatever their headers. */
const everyFieldToFirstColumn = (kind: (typeof IMPORT_KINDS)[number]) =>
  Object.fromEntries(IMPORT_FIELDS[kind].map((field) => [field.key, field.required ? 0 : null]));

const DOORS: Record<Door, DoorSpec> = {
  // Imports: upload for every kind; then the dry run and the apply, the rows read whatever the kind.
  imports: {
    tables: [
      'import_runs',
      'import_run_file_parts',
      'import_run_records',
      'clients',
      'brokers',
      'units',
      'reservations',
    ],
    async send(scene, file, bytes) {
      const answers: LightMyRequestResponse[] = [];
      const kinds = file.big ? (['clients'] as const) : IMPORT_KINDS;
      for (const kind of kinds) {
        const uploaded = await upload(scene.admin, kind, file.name, bytes);
        answers.push(uploaded);
        if (uploaded.statusCode !== 201) continue;
        const { runId } = uploaded.json();
        const mapping = everyFieldToFirstColumn(kind);
        const dry = await scene.admin.post(`/api/imports/runs/${runId}/dry-run`, { mapping });
        answers.push(dry);
        if (dry.statusCode !== 200 && !file.big) {
          // The apply plans again: refused the same way (a big file's second reading is left out: slow).
          answers.push(
            await scene.admin.post(`/api/imports/runs/${runId}/apply`, { mapping, onlyValidRows: true }),
          );
        }
      }
      return answers;
    },
  },
  ufValues: {
    tables: ['uf_values'],
    send: async (scene, file, bytes) => [
      await scene.admin.post('/api/uf-values/import', {
        fileName: file.name,
        content: base64(bytes),
        apply: true,
      }),
    ],
  },
  priceList: {
    tables: ['price_lists', 'price_list_items'],
    send: async (scene, _file, bytes) => [
      await scene.admin.post(`/api/stock/projects/${scene.projectId}/price-lists/read`, {
        contentBase64: base64(bytes),
      }),
    ],
  },
  invoiceXml: {
    tables: ['broker_invoices'],
    send: async (scene, _file, bytes) => [
      await scene.payments.post(`${scene.invoiceBase}/invoice/xml`, { content: base64(bytes) }),
    ],
  },
  // Documents of a reservation, and the broker's invoice PDF (kept there, as 'Factura del broker').
  documents: {
    tables: ['documents', 'document_versions', 'document_chunks'],
    send: async (scene, file, bytes) => {
      const answers: LightMyRequestResponse[] = [];
      for (const type of [scene.documentTypes.other, scene.documentTypes.brokerInvoice]) {
        const url = `/api/reservations/${scene.reservationId}/documents?typeId=${type}&fileName=${encodeURIComponent(file.name)}`;
        answers.push(await scene.admin.post(url, bytes, OCTET));
      }
      return answers;
    },
  },
  // A project's logo and a user's avatar.
  images: {
    tables: ['stored_files'],
    send: async (scene, _file, bytes) => [
      await scene.admin.put(`/api/settings/projects/${scene.projectId}/logo`, bytes, OCTET),
      await scene.admin.put(`/api/settings/users/${scene.admin.user!.id}/avatar`, bytes, OCTET),
    ],
  },
};

async function counts(ctx: TestContext, tables: readonly string[]): Promise<Record<string, number>> {
  const [row] = await queryRows<Record<string, number>>(
    ctx.db,
    sql.raw(`select ${tables.map((table) => `(select count(*)::int from ${table}) as ${table}`).join(', ')}`),
  );
  return row!;
}

/** A refusal: a 4xx with a message of the catalogue (never the unexpected error's). */
function refusalOf(response: LightMyRequestResponse): Outcome | null {
  if (response.statusCode < 400 || response.statusCode >= 500) return null;
  return { status: response.statusCode, message: errorOf(response).message };
}

/** The price list's reader answers 200 with the reasons it read nothing (a read-only preview). */
function priceListRefusal(response: LightMyRequestResponse): Outcome | null {
  if (response.statusCode !== 200) return refusalOf(response);
  const body = response.json() as { rows: unknown[]; problems: string[] };
  return body.rows.length === 0 && body.problems.length > 0
    ? { status: 200, message: body.problems[0]! }
    : null;
}

describe('every upload door walked with the corpus of hostile and real-world files', () => {
  const ctx = useTestApp({ now: () => NOW });

  async function scene(): Promise<Scene> {
    const admin = await loginAs(ctx, { firstName: 'Camila', lastName: 'Fuentes' });
    const payments = await loginAs(ctx, { userType: 'Gestor de Pagos' });
    const project = await createProject(ctx.db);
    const broker = await createBroker(ctx.db, { rut: '76543210-3' });
    const reservation = await createReservation(ctx.db, {
      projectId: project.id,
      isWithBroker: true,
      brokerId: broker.id,
    });
    await createSaleFlow(ctx.db, { reservationId: reservation.id, at: NOW });
    await createCommission(ctx.db, reservation, { commissionAmount: '100.00' });
    await seedUfValues(ctx.appDb, { '2026-11-16': '40000.00' });
    const { flowId } = (await admin.post(`/api/payments/${reservation.id}/first-flow`)).json();
    const driver = await FlowDriver.open(ctx.db, flowId);
    await driver.start({ at: NOW });
    await driver.completeAll(FIRST_PAYMENT_BEFORE_INVOICE, { at: NOW });
    const types = await queryRows<{ id: string; name: string }>(
      ctx.db,
      sql`select id, name from document_types where name in ('Otro', 'Factura del broker')`,
    );
    const typeId = (name: string) => types.find((type) => type.name === name)!.id;
    return {
      admin,
      payments,
      projectId: project.id,
      reservationId: reservation.id,
      invoiceBase: `/api/payment-flows/${flowId}/tasks/${driver.task('Recepción Factura Broker')}`,
      documentTypes: { other: typeId('Otro'), brokerInvoice: typeId('Factura del broker') },
    };
  }

  it('holds each committed file equal to what its maker makes', async () => {
    for (const file of CORPUS.filter(isCommitted)) {
      expect(readFileSync(join(FILES_DIR, file.name)).equals(await bytesOf(file)), file.name).toBe(true);
    }
  });

  for (const door of Object.keys(DOORS) as Door[]) {
    it(`${door}: every hostile file refused in Spanish writing nothing, every real one read; the server answers`, async () => {
      const spec = DOORS[door];
      const s = await scene();
      const files = CORPUS.filter((file) => file.doors[door] !== undefined);
      expect(files.length).toBeGreaterThan(0);
      for (const file of files) {
        const bytes = await bytesOf(file);
        const started = Date.now();
        const before = await counts(ctx, spec.tables);
        const answers = await spec.send(s, file, bytes);
        const say = `${door} ← ${file.name} (${file.about})`;
        if (process.env.DOORS_TIMING) console.log(say, Date.now() - started);
        for (const answer of answers)
          expect(answer.statusCode, `${say}: ${answer.body.slice(0, 300)}`).toBeLessThan(500);
        if (file.doors[door] === 'refused') {
          const refusals = answers.map(door === 'priceList' ? priceListRefusal : refusalOf);
          // The last answer is the door's last word (an upload may pass and its dry run refuse).
          const last = refusals.at(-1);
          expect(last, `${say}: ${answers.at(-1)?.body.slice(0, 300)}`).toBeTruthy();
          expect(last!.message, say).toMatch(/[a-záéíóúñ]{3}/i);
          expect(last!.message, say).not.toMatch(/Ocurrió un error inesperado/);
          // Nothing of a refused file stays but the runs of uploads whose reading stopped later.
          const after = await counts(ctx, spec.tables);
          const runsKept = door === 'imports' ? answers.filter((answer) => answer.statusCode === 201) : [];
          const expected = { ...before };
          if (door === 'imports') {
            expected.import_runs = (expected.import_runs ?? 0) + runsKept.length;
            expected.import_run_file_parts = after.import_run_file_parts!;
          }
          expect(after, say).toEqual(expected);
        } else {
          const accepted = answers.filter((answer) => answer.statusCode < 300);
          expect(
            accepted.length,
            `${say}: ${answers.map((answer) => answer.body.slice(0, 200)).join(' | ')}`,
          ).toBeGreaterThan(0);
        }
      }
      const health = await ctx.app.inject({ method: 'GET', url: '/api/health' });
      expect(health.statusCode).toBe(200);
    }, 300_000);
  }
});
