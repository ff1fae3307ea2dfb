// The hostile section (issue 52, decision 0050): each hostile file of the corpus at its doors and each
// heavy click — a big export, the errors workbook of a 20,000-row file repeating one RUT, 35 exports
// at once, 3,000 event streams of one session, 200 slow uploads of one administrator — against the
// running built server, with /api/health polled meanwhile (the longest wait) and the server's RSS
// sampled (its growth over the step). Targets (issue 52): health ≤ 100 ms embedded, ≤ 50 ms
// PostgreSQL, ≤ 250 ms during the 35 exports; RSS growth ≤ 200 MB.
//
// In `npm run bench` (BENCH_ONLY=hostile for this section alone) it runs on the bench's dataset. Alone,
// `npx tsx bench/hostile.ts` builds if needed and runs it on both engines on the small 'e2e' dataset
// (HOSTILE_SCALE to change it), each in a fresh database: .tmp/bench-hostile, and PostgreSQL's
// `inmoflujo_bench_hostile` when it answers on 127.0.0.1:5432. HOSTILE_ONLY=bigExport,35exports,…
// measures only the steps whose key holds one of the words.
import { readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { Worker } from 'node:worker_threads';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { type Database, queryRows } from '../src/server/db/client';
import { CORPUS, type Door } from '../src/server/test/corpus/corpus';

export interface HostileStep {
  key: string;
  label: string;
  /** What the server answered: status → how many times. */
  statuses: Record<string, number>;
  totalMs: number;
  longestHealthMs: number;
  healthPolls: number;
  rssGrowthMb: number | null;
  /** The server's CPU time over the step (user + system): what the step cost it, whatever the load. */
  serverCpuMs: number | null;
  healthTargetMs: number;
  met: boolean;
}

const RSS_TARGET_MB = 200;
const count = (statuses: Record<string, number>, status: number | string) => {
  statuses[String(status)] = (statuses[String(status)] ?? 0) + 1;
};

function rssOf(pid: number): number | null {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** The process's CPU time so far (user + system), from /proc (Linux), in ms. */
function cpuMsOf(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime, fields 14 and 15 of stat (12 and 13 after the command), in clock ticks (100/s).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/** Runs `work` with /api/health polled every 10 ms and the server's RSS sampled every 50 ms. */
async function watched(
  origin: string,
  serverPid: number | undefined,
  key: string,
  label: string,
  healthTargetMs: number,
  work: (statuses: Record<string, number>) => Promise<void>,
): Promise<HostileStep> {
  let running = true;
  let longest = 0;
  let polls = 0;
  const rssBefore = serverPid ? rssOf(serverPid) : null;
  const cpuBefore = serverPid ? cpuMsOf(serverPid) : null;
  let rssPeak = rssBefore ?? 0;
  const sampler = setInterval(() => {
    const rss = serverPid ? rssOf(serverPid) : null;
    if (rss !== null) rssPeak = Math.max(rssPeak, rss);
  }, 50);
  const poller = (async () => {
    while (running) {
      const started = performance.now();
      try {
        await (await fetch(`${origin}/api/health`, { signal: AbortSignal.timeout(60_000) })).arrayBuffer();
      } catch {
        // counted as the wait it was
      }
      longest = Math.max(longest, performance.now() - started);
      polls += 1;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  const statuses: Record<string, number> = {};
  const started = performance.now();
  try {
    await work(statuses);
  } catch (error) {
    count(statuses, `error: ${(error as Error).message}`);
  } finally {
    running = false;
    await poller;
    clearInterval(sampler);
  }
  const rssGrowthMb = rssBefore === null ? null : Math.round((rssPeak - rssBefore) / 1e6);
  const cpuAfter = serverPid ? cpuMsOf(serverPid) : null;
  const serverCpuMs = cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore;
  const longestHealthMs = Math.round(longest);
  return {
    key,
    label,
    statuses,
    totalMs: Math.round(performance.now() - started),
    longestHealthMs,
    healthPolls: polls,
    rssGrowthMb,
    serverCpuMs,
    healthTargetMs,
    met: longestHealthMs <= healthTargetMs && (rssGrowthMb === null || rssGrowthMb <= RSS_TARGET_MB),
  };
}

interface Scene {
  origin: string;
  cookie: string;
  projectId: string | null;
  reservationId: string | null;
  documentTypeId: string | null;
  /** A payment flow's 'Recepción Factura Broker' task, open for its XML (`invoiceTaskOf`). */
  invoiceBase: string | null;
}

async function call(scene: Scene, method: string, path: string, body?: Buffer | string, type?: string) {
  try {
    const response = await fetch(`${scene.origin}${path}`, {
      method,
      headers: {
        cookie: scene.cookie,
        origin: scene.origin,
        ...(type ? { 'content-type': type } : {}),
      },
      body: typeof body === 'string' || body === undefined ? body : new Uint8Array(body),
    });
    const text = await response.text();
    return { status: response.status, text };
  } catch {
    // The server answered and closed before the whole body was sent (a size refused at once).
    return { status: 'closed early' as const, text: '' };
  }
}

const JSON_TYPE = 'application/json';
const IMPORT_TYPE = 'application/x-inmoflujo-import';
const OCTET = 'application/octet-stream';

/** One file through one door, as the screens send it; each answer's status counted. */
async function throughDoor(
  scene: Scene,
  door: Door,
  name: string,
  bytes: Buffer,
  statuses: Record<string, number>,
) {
  const base64 = bytes.toString('base64');
  switch (door) {
    case 'imports': {
      const uploaded = await call(
        scene,
        'POST',
        `/api/imports/files?kind=clients&name=${encodeURIComponent(name)}`,
        bytes,
        IMPORT_TYPE,
      );
      count(statuses, uploaded.status);
      if (uploaded.status !== 201) return;
      const { runId } = JSON.parse(uploaded.text) as { runId: string };
      const mapping = { rut: 0, firstName: 1, lastName: 2, birthDate: 3 };
      const dry = await call(
        scene,
        'POST',
        `/api/imports/runs/${runId}/dry-run`,
        JSON.stringify({ mapping }),
        JSON_TYPE,
      );
      count(statuses, dry.status);
      return;
    }
    case 'ufValues': {
      const body = JSON.stringify({ fileName: name, content: base64, apply: false });
      count(statuses, (await call(scene, 'POST', '/api/uf-values/import', body, JSON_TYPE)).status);
      return;
    }
    case 'priceList': {
      if (!scene.projectId) return;
      const body = JSON.stringify({ contentBase64: base64 });
      count(
        statuses,
        (
          await call(
            scene,
            'POST',
            `/api/stock/projects/${scene.projectId}/price-lists/read`,
            body,
            JSON_TYPE,
          )
        ).status,
      );
      return;
    }
    case 'documents': {
      if (!scene.reservationId || !scene.documentTypeId) return;
      const url = `/api/reservations/${scene.reservationId}/documents?typeId=${scene.documentTypeId}&fileName=${encodeURIComponent(name)}`;
      count(statuses, (await call(scene, 'POST', url, bytes, OCTET)).status);
      return;
    }
    case 'images': {
      if (!scene.projectId) return;
      count(
        statuses,
        (await call(scene, 'PUT', `/api/settings/projects/${scene.projectId}/logo`, bytes, OCTET)).status,
      );
      return;
    }
    case 'invoiceXml': {
      if (!scene.invoiceBase) return;
      const body = JSON.stringify({ content: base64 });
      count(
        statuses,
        (await call(scene, 'POST', `${scene.invoiceBase}/invoice/xml`, body, JSON_TYPE)).status,
      );
      return;
    }
    default:
      return;
  }
}

/**
 * The attacker runs on a thread of its own, like another machine's browser would: opening 3,000
 * streams or 200 sockets keeps its event loop busy, and the health poller sharing that loop measured
 * the bench's own wait as the server's. The thread's end closes every connection it opened.
 */
function attack(script: string, data: Record<string, unknown>): Promise<Record<string, number>> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(script, { eval: true, workerData: data });
    worker.once('message', (statuses: Record<string, number>) => {
      void worker.terminate().then(() => resolve(statuses));
    });
    worker.once('error', reject);
  });
}

/** One session opening `count` event streams at once; the served ones closed at the end. */
const STREAMS_ATTACK = `
const { parentPort, workerData } = require('node:worker_threads');
const { origin, cookie, count } = workerData;
const statuses = {};
const note = (status) => { statuses[status] = (statuses[status] ?? 0) + 1; };
const controller = new AbortController();
require('node:events').setMaxListeners(count + 100, controller.signal);
Promise.all(Array.from({ length: count }, () =>
  fetch(origin + '/api/events', { headers: { cookie, origin, accept: 'text/event-stream' }, signal: controller.signal })
    .then((response) => { note(response.status); return response.status === 200 ? undefined : response.arrayBuffer(); },
          () => note('failed')),
)).then(() => { controller.abort(); parentPort.postMessage(statuses); });
`;

/** \`count\` uploads of one session that send their headers and then one byte a second, for \`holdMs\`. */
const SLOW_UPLOADS_ATTACK = `
const { parentPort, workerData } = require('node:worker_threads');
const { connect } = require('node:net');
const { origin, cookie, count, holdMs } = workerData;
const url = new URL(origin);
const sockets = Array.from({ length: count }, () => {
  const socket = connect(Number(url.port), url.hostname);
  const upload = { socket, answer: '', closed: false };
  socket.on('data', (chunk) => { upload.answer += chunk; });
  socket.on('close', () => { upload.closed = true; });
  socket.on('error', () => {});
  socket.write('POST /api/imports/files?kind=clients&name=lento.csv HTTP/1.1\\r\\nHost: ' + url.host + '\\r\\nOrigin: ' + origin +
    '\\r\\nCookie: ' + cookie + '\\r\\nContent-Type: ${IMPORT_TYPE}\\r\\nContent-Length: 1000000\\r\\n\\r\\n');
  const timer = setInterval(() => (socket.destroyed ? clearInterval(timer) : socket.write('a')), 1000);
  socket.on('close', () => clearInterval(timer));
  return upload;
});
setTimeout(() => {
  const statuses = {};
  for (const upload of sockets) {
    const status = /^HTTP\\/1\\.1 (\\d+)/.exec(upload.answer)?.[1] ?? (upload.closed ? 'closed unanswered' : 'held');
    statuses[status] = (statuses[status] ?? 0) + 1;
    upload.socket.destroy();
  }
  parentPort.postMessage(statuses);
}, holdMs);
`;

/** The CSV of the issue: 20,000 rows repeating one RUT (0.8 MB). */
function repeatedRutCsv(rows: number): Buffer {
  const lines = ['RUT;Nombres;Apellidos;Fecha de nacimiento'];
  for (let i = 0; i < rows; i++) lines.push(`12.345.678-5;Nombre ${i};Apellido ${i};01/01/1980`);
  return Buffer.from(`${lines.join('\r\n')}\r\n`);
}

export async function measureHostile(
  origin: string,
  cookie: string,
  serverPid: number | undefined,
  engine: 'pglite' | 'postgres',
  log: (line: string) => void = console.log,
  /** A payment flow's invoice task to send the invoice XMLs to (`invoiceTaskOf`, before the server starts). */
  invoiceBase: string | null = null,
): Promise<HostileStep[]> {
  const healthTarget = engine === 'pglite' ? 100 : 50;
  const get = async <T>(path: string): Promise<T | null> => {
    const response = await fetch(`${origin}${path}`, { headers: { cookie, origin } });
    return response.ok ? ((await response.json()) as T) : null;
  };
  const projects = await get<{ projects: { id: string }[] }>('/api/stock/projects');
  const reservations = await get<{ rows: { id: string }[] }>('/api/reservations?pageSize=1');
  const types = await get<{ types: { id: string }[] }>('/api/document-types');
  const scene: Scene = {
    origin,
    cookie,
    projectId: projects?.projects[0]?.id ?? null,
    reservationId: reservations?.rows[0]?.id ?? null,
    documentTypeId: types?.types[0]?.id ?? null,
    invoiceBase,
  };
  const steps: HostileStep[] = [];
  /** HOSTILE_ONLY=bigExport,35exports,… measures only the steps whose key holds one of the words. */
  const only = (process.env.HOSTILE_ONLY ?? '').split(',').filter(Boolean);
  const wanted = (key: string) => only.length === 0 || only.some((word) => key.includes(word));
  const report = (step: HostileStep) => {
    steps.push(step);
    log(
      `  ${step.label}: ${JSON.stringify(step.statuses)} in ${step.totalMs} ms; longest /api/health wait ${step.longestHealthMs} ms (target ${step.healthTargetMs}) over ${step.healthPolls} polls; RSS +${step.rssGrowthMb ?? '?'} MB; server CPU ${step.serverCpuMs ?? '?'} ms${step.met ? '' : '  [NOT MET]'}`,
    );
  };

  // Each file of the corpus at each of its doors.
  for (const file of CORPUS) {
    if (!wanted(`hostile:${file.name}`)) continue;
    const doors = (Object.keys(file.doors) as Door[]).filter(
      (door) => door !== 'invoiceXml' || invoiceBase !== null,
    );
    if (doors.length === 0) continue;
    const bytes = Buffer.from(await file.make());
    report(
      await watched(
        origin,
        serverPid,
        `hostile:${file.name}`,
        `${file.name} at ${doors.join(', ')}`,
        healthTarget,
        async (statuses) => {
          for (const door of doors) await throughDoor(scene, door, file.name, bytes, statuses);
        },
      ),
    );
  }

  // A big export: every reservation, in Excel.
  if (wanted('hostile:bigExport'))
    report(
      await watched(
        origin,
        serverPid,
        'hostile:bigExport',
        'big export (sales, XLSX)',
        healthTarget,
        async (statuses) => {
          const answer = await call(
            scene,
            'GET',
            '/api/reports/sales/export?fromDate=1900-01-01&toDate=2100-12-31&format=xlsx',
          );
          count(statuses, answer.status);
        },
      ),
    );

  // 35 exports at once (the extra ones refused politely).
  if (wanted('hostile:35exports'))
    report(
      await watched(origin, serverPid, 'hostile:35exports', '35 exports at once', 250, async (statuses) => {
        const answers = await Promise.all(
          Array.from({ length: 35 }, (_, i) =>
            call(
              scene,
              'GET',
              `/api/reports/sales/export?fromDate=1900-01-01&toDate=2100-12-31&format=${i % 2 ? 'csv' : 'xlsx'}`,
            ),
          ),
        );
        for (const answer of answers) count(statuses, answer.status);
      }),
    );

  // 3,000 event streams of one session.
  if (wanted('hostile:3000streams'))
    report(
      await watched(
        origin,
        serverPid,
        'hostile:3000streams',
        '3,000 event streams of one session',
        healthTarget,
        async (statuses) => {
          Object.assign(statuses, await attack(STREAMS_ATTACK, { origin, cookie, count: 3000 }));
        },
      ),
    );

  // 200 slow uploads of one administrator: the extra ones refused at once; the held ones cut later.
  if (wanted('hostile:slowUploads'))
    report(
      await watched(
        origin,
        serverPid,
        'hostile:slowUploads',
        '200 slow uploads of one administrator (5 s)',
        healthTarget,
        async (statuses) => {
          Object.assign(
            statuses,
            await attack(SLOW_UPLOADS_ATTACK, { origin, cookie, count: 200, holdMs: 5000 }),
          );
        },
      ),
    );
  // The errors workbook of 20,000 rows repeating one RUT (last: before issue 52's bounded messages it
  // took the server's heap, and the steps after it would measure a dead server).
  if (wanted('hostile:errorsWorkbook'))
    report(
      await watched(
        origin,
        serverPid,
        'hostile:errorsWorkbook',
        'errors workbook (20,000 rows, one RUT)',
        healthTarget,
        async (statuses) => {
          const uploaded = await call(
            scene,
            'POST',
            '/api/imports/files?kind=clients&name=repetido.csv',
            repeatedRutCsv(20_000),
            IMPORT_TYPE,
          );
          count(statuses, uploaded.status);
          if (uploaded.status !== 201) return;
          const { runId } = JSON.parse(uploaded.text) as { runId: string };
          const mapping = { rut: 0, firstName: 1, lastName: 2, birthDate: 3 };
          count(
            statuses,
            (
              await call(
                scene,
                'POST',
                `/api/imports/runs/${runId}/dry-run`,
                JSON.stringify({ mapping }),
                JSON_TYPE,
              )
            ).status,
          );
          count(statuses, (await call(scene, 'GET', `/api/imports/runs/${runId}/errors`)).status);
        },
      ),
    );

  return steps;
}

/**
 * The invoice XML's door needs a payment flow at its 'Recepción Factura Broker' task: one of the
 * dataset's payment flows is driven there through the workflow engine, as the tests do (doors.test.ts),
 * before the server starts (the embedded database admits one process). Its task's API path, or null.
 */
export async function invoiceTaskOf(db: Database): Promise<string | null> {
  const { FlowDriver } = await import('../src/server/test/flow-builders');
  const { FIRST_PAYMENT_BEFORE_INVOICE } = await import('../src/server/test/payment-flow-tasks');
  const flows = await queryRows(
    db,
    sql`select ft.flow_id as "flowId", ft.status from flow_tasks ft
          join workflow_tasks wt on wt.id = ft.task_id join flows f on f.id = ft.flow_id
         where wt.name = 'Recepción Factura Broker' and f.kind = 'payment' and ft.status <> 'completed'
         order by (ft.status = 'in_progress') desc, f.id limit 5`,
    z.object({ flowId: z.string(), status: z.string() }),
  );
  for (const { flowId } of flows) {
    try {
      const driver = await FlowDriver.open(db, flowId);
      const done = new Set(
        (await driver.state()).tasks.filter((task) => task.status === 'completed').map((task) => task.id),
      );
      for (const name of FIRST_PAYMENT_BEFORE_INVOICE)
        if (!done.has(driver.task(name))) await driver.complete(name);
      return `/api/payment-flows/${flowId}/tasks/${driver.task('Recepción Factura Broker')}`;
    } catch {
      // Not a first payment's flow, or not drivable there: the next one.
    }
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Alone: `npx tsx bench/hostile.ts`

async function alone() {
  const { buildIfNeeded } = await import('../scripts/build-if-needed.mjs');
  const { freePort, login, startServer, stopServer } = await import('../scripts/server-process');
  const { openDatabase, postgresPool } = await import('../src/server/db/client');
  const { DEMO_EMAIL_DOMAIN, DEMO_PASSWORD, generateDataset } = await import('../scripts/demo-data');
  buildIfNeeded();
  const scale = (process.env.HOSTILE_SCALE ?? 'e2e') as 'e2e';
  const engines = (process.env.BENCH_ENGINES ?? 'pglite,postgres').split(',');
  const results: Record<string, HostileStep[]> = {};
  for (const engine of engines as ('pglite' | 'postgres')[]) {
    const dataDir = '.tmp/bench-hostile';
    let databaseUrl: string | undefined;
    rmSync(dataDir, { recursive: true, force: true });
    if (engine === 'postgres') {
      databaseUrl = 'postgres://postgres@127.0.0.1:5432/inmoflujo_bench_hostile';
      const pool = postgresPool('postgres://postgres@127.0.0.1:5432/postgres');
      try {
        await pool.query('drop database if exists inmoflujo_bench_hostile with (force)');
        await pool.query('create database inmoflujo_bench_hostile');
      } catch (error) {
        console.log(`PostgreSQL: not measured (${(error as Error).message})`);
        continue;
      } finally {
        await pool.end();
      }
    }
    const database = await openDatabase({ databaseUrl, dataDir });
    await database.migrate();
    await generateDataset(database.db, { scale, seed: 20_260_101, log: () => {} });
    const invoiceBase = await invoiceTaskOf(database.db);
    await database.close();
    const port = await freePort();
    const server = await startServer(port, { dataDir, databaseUrl });
    try {
      const origin = `http://127.0.0.1:${port}`;
      const cookie = await login(origin, `camila.fuentes@${DEMO_EMAIL_DOMAIN}`, DEMO_PASSWORD);
      console.log(
        `\n${engine} (dataset '${scale}'; load average ${loadavg()
          .map((n) => n.toFixed(1))
          .join(' ')}):`,
      );
      results[engine] = await measureHostile(origin, cookie, server.pid, engine, console.log, invoiceBase);
    } finally {
      await stopServer(server);
    }
  }
  console.log(`\n${JSON.stringify(results)}`);
}

if (process.argv[1]?.endsWith('hostile.ts')) {
  alone().then(
    () => process.exit(0),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
