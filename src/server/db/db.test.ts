import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SQL, sql } from 'drizzle-orm';
import {
  boolean,
  date,
  jsonb,
  numeric,
  PgDialect,
  pgTable,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useTestApp } from '../test/app';
import { actingAs } from './actor';
import { textArrayParam, uuidArrayParam } from './arrays';
import { insertRowsAsJson } from './bulk';
import { isoInstant, queryRows, RowShapeError } from './client';
import { DataDirLockedError, lockDataDir } from './data-dir-lock';
import { projects, realEstateAgencies } from './schema';

const SALE_TASKS = [
  ['Reserva', 'COF PENDIENTE GENERACIÓN'],
  ['Reserva', 'COF PENDIENTE FIRMA'],
  ['Reserva', 'SOLICITUD VB COF PENDIENTE'],
  ['Promesa', 'PENDIENTE GENERACIÓN PROMESA'],
  ['Promesa', 'PENDIENTE ORIGEN DE FONDOS'],
  ['Promesa', 'PENDIENTE VB PROMESA'],
  ['Promesa', 'FIRMA PROMESA COORDINADA'],
  ['Promesa', 'PROMESA DE COMPRA ENTREGADA A OPERACIONES'],
  ['Promesa', 'PROMESA DE COMPRA ENTREGA A CLIENTE'],
  ['Escrituración', 'PENDIENTE CARTA PIE'],
  ['Escrituración', 'APROBACIÓN CHIP PENDIENTE'],
  ['Escrituración', 'PENDIENTE SET HIPOTECARIO'],
  ['Escrituración', 'GASTOS OPERACIONALES PENDIENTES'],
  ['Escrituración', 'PENDIENTE TASACIÓN'],
  ['Escrituración', 'A LA ESPERA DE TASACIÓN'],
  ['Escrituración', 'DPS PENDIENTE'],
  ['Escrituración', 'ESTUDIO DE TÍTULOS PENDIENTES'],
  ['Escrituración', 'PENDIENTE VISACIÓN'],
  ['Escrituración', 'BORRADOR EN CONFECCIÓN'],
  ['Escrituración', 'PENDIENTE FIRMA ESCRITURA'],
  ['Escrituración', 'SALDOS ESCRITURA PENDIENTES'],
  ['Escrituración', 'PENDIENTE ENTREGA'],
  ['Reparos', 'REPARO OPERACIONES'],
  ['Reparos', 'REPARO COMERCIAL'],
  ['Reparos', 'REPARO BANCO'],
];

const MAIN_PAYMENT_TASKS = [
  ['Solicitud Liquidación', 'Solicitud Liquidación', 1],
  ['Aprobación Jefe Inversiones', 'Solicitud a Jefe Inversiones', 1],
  ['Aprobación Jefe Inversiones', 'VB Jefe Inversiones', 2],
  ['Aprobación Gerente Comercial', 'Solicitud Gerente Comercial', 1],
  ['Aprobación Gerente Comercial', 'VB Gerente Comercial', 2],
  ['Aprobación Operaciones', 'Solicitud Operaciones', 1],
  ['Aprobación Operaciones', 'VB Operaciones', 2],
  ['Aprobación Control de Gestión', 'Solicitud Control de Gestión', 1],
  ['Aprobación Control de Gestión', 'VB Control de Gestión', 2],
  ['Orden de Compra', 'Generación de OC', 2],
  ['Orden de Compra', 'VB OC Gerencia Comercial', 2],
  ['Orden de Compra', 'VB OC Gerencia General', 2],
  ['Orden de Compra', 'Envío OC Broker', 1],
  ['Facturación', 'Recepción Factura Broker', 3],
  ['Facturación', 'Generación de Entrada', 2],
  ['Facturación', 'Aprobación de Entrada', 2],
  ['Pago', 'Notificación a Finanzas', 1],
  ['Pago', 'Fecha de Pago', 2],
];

const SECOND_PAYMENT_TASKS = [
  ['Facturación', 'Generación de Entrada 2', 2],
  ['Facturación', 'Aprobación de Entrada 2', 2],
  ['Facturación', 'Envío Entrada Broker 2', 1],
  ['Facturación', 'Recepción Factura 2 Broker', 3],
  ['Pago', 'Notificación a Finanzas 2', 1],
  ['Pago', 'Fecha de Pago 2', 2],
];

describe('seeded workflow definitions (workflows.md §1)', () => {
  const ctx = useTestApp();

  it('has the 25 sale tasks in stage and task order, without deadlines', async () => {
    const rows = await queryRows<{ stage: string; task: string; days: number | null }>(
      ctx.db,
      sql`select s.name as stage, t.name as task, t.days_to_complete as days
          from workflow_tasks t join workflow_stages s on s.id = t.stage_id
          join workflows f on f.id = s.workflow_id
          where f.name = 'Flujo de Venta Regular' order by s.sort_order, t.sort_order`,
    );
    expect(rows.map((row) => [row.stage, row.task])).toEqual(SALE_TASKS);
    expect(rows.every((row) => row.days === null)).toBe(true);
  });

  it('says by data how each workflow runs: its kind, how tasks open, the seller and approval flags', async () => {
    const workflows = await queryRows<{ name: string; kind: string; opening: string; single: boolean }>(
      ctx.db,
      sql`select name, kind, task_opening as opening, single_assignee as single from workflows order by name`,
    );
    expect(workflows).toEqual([
      { name: 'Flujo de Pago Principal', kind: 'payment', opening: 'prerequisites', single: true },
      { name: 'Flujo de Segundo Pago', kind: 'payment', opening: 'prerequisites', single: true },
      { name: 'Flujo de Venta Regular', kind: 'sale', opening: 'stage', single: false },
    ]);
    const flagged = await queryRows<{ name: string; seller: boolean; approval: boolean }>(
      ctx.db,
      sql`select name, assign_to_seller as seller, is_approval as approval from workflow_tasks
          where assign_to_seller or is_approval order by name`,
    );
    expect(flagged.filter((task) => task.seller).map((task) => task.name)).toEqual([
      'COF PENDIENTE FIRMA',
      'COF PENDIENTE GENERACIÓN',
      'SOLICITUD VB COF PENDIENTE',
    ]);
    expect(flagged.filter((task) => task.approval).map((task) => task.name)).toEqual([
      'Aprobación de Entrada',
      'Aprobación de Entrada 2',
      'VB Control de Gestión',
      'VB Gerente Comercial',
      'VB Jefe Inversiones',
      'VB OC Gerencia Comercial',
      'VB OC Gerencia General',
      'VB Operaciones',
    ]);
  });

  it.each([
    ['Flujo de Pago Principal', MAIN_PAYMENT_TASKS],
    ['Flujo de Segundo Pago', SECOND_PAYMENT_TASKS],
  ])('has the tasks of %s in order with their days', async (flow, expected) => {
    const rows = await queryRows<{ stage: string; task: string; days: number }>(
      ctx.db,
      sql`select s.name as stage, t.name as task, t.days_to_complete as days
          from workflow_tasks t join workflow_stages s on s.id = t.stage_id
          join workflows f on f.id = s.workflow_id
          where f.name = ${flow} order by s.sort_order, t.sort_order`,
    );
    expect(rows.map((row) => [row.stage, row.task, row.days])).toEqual(expected);
  });

  it('chains each payment task to the one before it, with the two parallel-approval overrides', async () => {
    const rows = await queryRows<{ flow: string; task: string; prerequisites: string[] }>(
      ctx.db,
      sql`select f.name as flow, t.name as task,
                 coalesce(array_agg(p.name order by p.name) filter (where p.id is not null), '{}') as prerequisites
          from workflow_tasks t
          join workflow_stages s on s.id = t.stage_id
          join workflows f on f.id = s.workflow_id and f.kind = 'payment'
          left join workflow_task_prerequisites x on x.task_id = t.id
          left join workflow_tasks p on p.id = x.prerequisite_task_id
          group by f.name, t.name, s.sort_order, t.sort_order
          order by f.name, s.sort_order, t.sort_order`,
    );
    const byTask = new Map(rows.map((row) => [`${row.flow}/${row.task}`, row.prerequisites]));
    const main = MAIN_PAYMENT_TASKS.map((task) => task[1] as string);
    expect(byTask.get('Flujo de Pago Principal/Solicitud Liquidación')).toEqual([]);
    expect(byTask.get('Flujo de Pago Principal/Solicitud Operaciones')).toEqual(['VB Jefe Inversiones']);
    expect(byTask.get('Flujo de Pago Principal/Generación de OC')).toEqual([
      'VB Control de Gestión',
      'VB Gerente Comercial',
    ]);
    for (let i = 1; i < main.length; i++) {
      if (main[i] === 'Solicitud Operaciones' || main[i] === 'Generación de OC') continue;
      expect(byTask.get(`Flujo de Pago Principal/${main[i]}`)).toEqual([main[i - 1]]);
    }
    const second = SECOND_PAYMENT_TASKS.map((task) => task[1] as string);
    expect(byTask.get(`Flujo de Segundo Pago/${second[0]}`)).toEqual([]);
    for (let i = 1; i < second.length; i++) {
      expect(byTask.get(`Flujo de Segundo Pago/${second[i]}`)).toEqual([second[i - 1]]);
    }
  });
});

describe('types over the wire', () => {
  const ctx = useTestApp();

  it('inserts rows set-based with each column’s own type, defaults for the columns left out', async () => {
    const probe = pgTable('bulk_probe', {
      id: uuid('id').primaryKey(),
      amount: numeric('amount', { precision: 14, scale: 2 }),
      day: date('day'),
      at: timestamp('at', { withTimezone: true }),
      doc: jsonb('doc'),
      label: text('label').notNull().default('sin nombre'),
      done: boolean('done'),
    });
    const ids = ['0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c'];
    // A table of the transaction's own (one connection on both engines), gone at its end.
    const rows = await ctx.db.transaction(async (tx) => {
      await tx.execute(sql`create temporary table bulk_probe (id uuid primary key, amount numeric(14, 2),
        day date, at timestamptz, doc jsonb, label text not null default 'sin nombre', done boolean)
        on commit drop`);
      await insertRowsAsJson(tx, probe, [
        {
          id: ids[0]!,
          amount: '1234.56',
          day: '2026-03-01',
          at: new Date('2026-03-01T12:34:56.789Z'),
          doc: { a: 'x "y"', n: [1, 2] },
          done: true,
        },
        { id: ids[1]!, amount: null, day: null, at: null, doc: null, done: false },
      ]);
      await expect(
        insertRowsAsJson(tx, probe, [{ id: ids[0]!, done: true }, { id: ids[1]! }]),
      ).rejects.toThrow('every row must have the same columns');
      return queryRows<Record<string, unknown>>(
        tx,
        sql`select id, amount, day, ${isoInstant(sql`at`)} as at, doc, label, done from bulk_probe order by id`,
      );
    });
    expect(rows).toEqual([
      {
        id: ids[0],
        amount: '1234.56',
        day: '2026-03-01',
        at: '2026-03-01T12:34:56.789Z',
        doc: { a: 'x "y"', n: [1, 2] },
        label: 'sin nombre',
        done: true,
      },
      { id: ids[1], amount: null, day: null, at: null, doc: null, label: 'sin nombre', done: false },
    ]);
  });

  it('sends an array as one parameter that carries any text unchanged', async () => {
    const values = ['20.123.456-K', 'con "comillas"', 'barra \\ invertida', 'coma, y {llaves}', '', 'ñandú'];
    const query = sql`select unnest(${textArrayParam(values)}) as value`;
    expect(new PgDialect().sqlToQuery(query).params).toHaveLength(1);
    const rows = await queryRows<{ value: string }>(ctx.db, query);
    expect(rows.map((row) => row.value)).toEqual(values);
    const ids = ['0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c'];
    const [match] = await queryRows<{ hit: boolean }>(
      ctx.db,
      sql`select ${ids[1]}::uuid = any(${uuidArrayParam(ids)}) as hit`,
    );
    expect(match!.hit).toBe(true);
  });

  it('returns DATE as YYYY-MM-DD, numeric as an exact string, counts as numbers, instants as ISO', async () => {
    const [row] = await queryRows<{ day: unknown; amount: unknown; total: unknown; at: unknown }>(
      ctx.db,
      sql`select date '2026-03-01' as day, 1234.50::numeric(14,2) as amount, count(*) as total,
                 ${isoInstant(sql`timestamptz '2026-03-01 02:30:00+00'`)} as at
          from generate_series(1, 3)`,
    );
    expect(row).toEqual({ day: '2026-03-01', amount: '1234.50', total: 3, at: '2026-03-01T02:30:00.000Z' });
  });

  it('plans with the in-memory/SSD page cost on every session, without JIT or parallel plans', async () => {
    const [row] = await queryRows<{ random_page_cost: string }>(ctx.db, sql`show random_page_cost`);
    expect(row!.random_page_cost).toBe('1.1');
    const [jit] = await queryRows<{ jit: string }>(ctx.db, sql`show jit`);
    expect(jit!.jit).toBe('off');
    const [workers] = await queryRows<{ max_parallel_workers_per_gather: string }>(
      ctx.db,
      sql`show max_parallel_workers_per_gather`,
    );
    expect(workers!.max_parallel_workers_per_gather).toBe('0');
  });

  it('returns DATE columns as YYYY-MM-DD through typed Drizzle queries too', async () => {
    const [agency] = await ctx.db
      .insert(realEstateAgencies)
      .values({
        rut: '76086428-5',
        businessName: 'Inmobiliaria Andes',
        bank: 'BCI',
        accountType: 'Cuenta Corriente',
        accountNumber: '123',
      })
      .returning();
    const [project] = await ctx.db
      .insert(projects)
      .values({
        name: 'Parque Sur',
        stage: 'Etapa 1',
        commune: 'Maipú',
        deadline: '2027-01-01',
        realEstateAgencyId: agency!.id,
      })
      .returning({ deadline: projects.deadline });
    expect(project!.deadline).toBe('2027-01-01');
  });

  it('checks rows a rule decides on against their schema: a renamed column fails, naming it (decision 0036)', async () => {
    const schema = z.object({ flowId: z.string(), isOpen: z.boolean() });
    const rows = await queryRows(ctx.db, sql`select 'f1' as "flowId", true as "isOpen"`, schema);
    expect(rows).toEqual([{ flowId: 'f1', isOpen: true }]);
    // A column renamed in the statement (or in the table) would have reached the rule as undefined.
    await expect(queryRows(ctx.db, sql`select 'f1' as "flow_id", true as "isOpen"`, schema)).rejects.toThrow(
      RowShapeError,
    );
    await expect(queryRows(ctx.db, sql`select 'f1' as "flow_id", 1 as "isOpen"`, schema)).rejects.toThrow(
      /flowId: .*; isOpen: /,
    );
  });

  it('checks every JSON answer of the API against its zod schema on the way out (decision 0036)', () => {
    // The answers that are not JSON: files, streamed exports, workbooks to download (an import's
    // template and its errors), backups, a reservation's documents and its PDFs, the event stream,
    // the API's own docs, the buyer's statement (PDF and XLSX).
    const notJson =
      /^\/api\/(docs(\/|$)|events$|files\/|.*\/export$|imports\/templates\/|imports\/runs\/:id\/errors$|backups\/:name\/download$|reservations\/:id\/documents\/:documentId\/(download|preview)$|reservations\/:id\/(receipt|commission-statement)\.pdf$|reservations\/:id\/account\/statement\.(pdf|xlsx)$)/;
    const unchecked = ctx.app.registeredRoutes
      .filter((route) => route.url.startsWith('/api') && route.method !== 'HEAD')
      .filter((route) => !notJson.test(route.url))
      .filter((route) => !route.answerSchemas.some((status) => /^2\d\d$/.test(status)))
      .map((route) => `${route.method} ${route.url}`);
    expect(unchecked).toEqual([]);
    expect(ctx.app.registeredRoutes.length).toBeGreaterThan(100);
  });
});

describe('data directory lock', () => {
  it('refuses a second holder of the same directory and frees it on release', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'inmoflujo-lock-'));
    try {
      const lock = await lockDataDir(dir);
      await expect(lockDataDir(dir)).rejects.toThrow(DataDirLockedError);
      await expect(lockDataDir(dir)).rejects.toThrow(`(PID ${process.pid})`);
      lock.release();
      expect(readdirSync(dir)).not.toContain('inmoflujo.lock');
      const again = await lockDataDir(dir);
      again.release();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('takes over the lock of a holder killed with SIGKILL, and a lock file of the old format', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'inmoflujo-lock-'));
    try {
      // A holder that dies without any chance to clean up: its socket file stays behind.
      const holder = spawn(process.execPath, [
        '-e',
        `require('node:net').createServer().listen(${JSON.stringify(join(dir, 'inmoflujo.lock'))}, () => console.log('held'))`,
      ]);
      await new Promise((held) => holder.stdout.once('data', held));
      await expect(lockDataDir(dir)).rejects.toThrow(DataDirLockedError);
      holder.kill('SIGKILL');
      await new Promise((gone) => holder.on('exit', gone));
      expect(readdirSync(dir)).toContain('inmoflujo.lock');
      const lock = await lockDataDir(dir);
      lock.release();
      // The previous version wrote its PID in a plain file (a PID that may well be alive: 1).
      writeFileSync(join(dir, 'inmoflujo.lock'), '1\n');
      const again = await lockDataDir(dir);
      again.release();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('actingAs', () => {
  const ctx = useTestApp();

  it('declares the last actor once per transaction, however many times the database was wrapped', async () => {
    const executed: string[] = [];
    const dialect = new PgDialect();
    // The test database, telling which statements each of its transactions ran.
    const counting = new Proxy(ctx.db, {
      get(target, property, receiver) {
        if (property !== 'transaction') return Reflect.get(target, property, receiver);
        return (run: Parameters<typeof target.transaction>[0]) =>
          target.transaction((tx) =>
            run(
              new Proxy(tx, {
                get(txTarget, txProperty, txReceiver) {
                  if (txProperty !== 'execute') return Reflect.get(txTarget, txProperty, txReceiver);
                  return (query: SQL) => {
                    executed.push(dialect.sqlToQuery(query).sql);
                    return txTarget.execute(query);
                  };
                },
              }),
            ),
          );
      },
    });
    const userId = randomUUID();
    const seen = await actingAs(actingAs(counting, { userId: null }), {
      userId,
      requestId: 'r-1',
    }).transaction(async (tx) => {
      const [row] = await queryRows<{ actor: string; request: string }>(
        tx,
        sql`select current_setting('inmoflujo.actor') as actor, current_setting('inmoflujo.request') as request`,
      );
      return row;
    });
    expect(seen).toEqual({ actor: userId, request: 'r-1' });
    expect(executed.filter((statement) => statement.includes('set_config'))).toHaveLength(1);
  });
});
