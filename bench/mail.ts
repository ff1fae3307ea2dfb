// `npx tsx bench/mail.ts`: what the e-mail outbox costs a flow command, and how fast the sender
// delivers (issue 34, decision 0035). On a fresh embedded database and, when it answers, on the local
// PostgreSQL (a database of its own, dropped afterwards):
// 1. A task's status change (in progress and back: no notice) and an approval's assignment (assigned
//    and unassigned: one notice written to the outbox) through the engine's service, each with the
//    outbox on and off (`notices: false`: the command as it was before), interleaved in rounds;
//    reports the median and the ratio on/off (target: ≤ 1.1).
// 2. The sender: MAIL_BENCH_MESSAGES messages (2,000) claimed and sent to an SMTP server in this
//    process (smtp-server), pooled nodemailer; reports messages per second (target: ≥ 100).
// Knobs: MAIL_BENCH_ROUNDS (10), MAIL_BENCH_PER_ROUND (20), MAIL_BENCH_MESSAGES (2000),
// BENCH_ENGINES (pglite,postgres).
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { actingAs, asSystem } from '../src/server/db/actor';
import {
  createPglite,
  type Database,
  migratePglite,
  migratePostgres,
  pgliteHandle,
  postgresHandle,
  postgresPool,
  queryRows,
} from '../src/server/db/client';
import { createMailSender, smtpTransport } from '../src/server/features/mail/mail-sender';
import * as workflows from '../src/server/features/workflows/workflows.service';
import { createBroker, createReservation, createUser } from '../src/server/test/builders';
import { createCommission, createPaymentFlow } from '../src/server/test/flow-builders';
import { actionsOf } from '../src/shared/permissions';

const rounds = Number(process.env.MAIL_BENCH_ROUNDS ?? 10);
const perRound = Number(process.env.MAIL_BENCH_PER_ROUND ?? 20);
const messageCount = Number(process.env.MAIL_BENCH_MESSAGES ?? 2000);
const engines = (process.env.BENCH_ENGINES ?? 'pglite,postgres').split(',').map((e) => e.trim());

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

async function measureCommands(db: Database) {
  const admin = await createUser(db, { email: `bench.admin.${Date.now()}@inmoflujo.test` });
  const approver = await createUser(db, { userType: 'KAM', email: `bench.kam.${Date.now()}@inmoflujo.test` });
  const broker = await createBroker(db);
  const reservation = await createReservation(db, { isWithBroker: true, brokerId: broker.id });
  const commission = await createCommission(db, reservation);
  const flow = await createPaymentFlow(db, { brokerCommissionId: commission.id });
  await flow.start();
  await flow.completeAll(['Solicitud Liquidación', 'Solicitud a Jefe Inversiones']);
  const open = flow.task('VB Jefe Inversiones');
  const actor = { id: admin.id, actions: actionsOf('Administrador') };
  const asAdmin = actingAs(db, { userId: admin.id });
  const run = (command: Parameters<typeof workflows.runCommandIn>[4], notices: boolean) =>
    asAdmin.transaction((tx) => workflows.runCommandIn(tx, actor, new Date(), flow.id, command, { notices }));

  const samples = {
    status: { on: [] as number[], off: [] as number[] },
    assign: { on: [] as number[], off: [] as number[] },
  };
  // On and off alternate command by command (their order too), so that a slower moment of the
  // machine weighs on both alike; the first round warms up.
  for (let round = 0; round < rounds + 1; round++) {
    for (let i = 0; i < perRound; i++) {
      for (const notices of i % 2 === 0 ? [true, false] : [false, true]) {
        let started = performance.now();
        await run({ type: 'setStatus', taskRowId: open, status: 'in_progress' }, notices);
        await run({ type: 'setStatus', taskRowId: open, status: 'pending' }, notices);
        const status = (performance.now() - started) / 2;
        started = performance.now();
        await run({ type: 'assign', taskRowId: open, userId: approver.id }, notices);
        await run({ type: 'unassign', taskRowId: open, userId: approver.id }, notices);
        const assign = (performance.now() - started) / 2;
        if (round === 0) continue;
        samples.status[notices ? 'on' : 'off'].push(status);
        samples.assign[notices ? 'on' : 'off'].push(assign);
      }
    }
  }
  const [written] = await queryRows<{ count: number }>(
    db,
    sql`select count(*)::int as count from mail_messages where kind = 'approval'`,
  );
  const result = (name: 'status' | 'assign') => ({
    onMs: Number(median(samples[name].on).toFixed(2)),
    offMs: Number(median(samples[name].off).toFixed(2)),
    ratio: Number((median(samples[name].on) / median(samples[name].off)).toFixed(3)),
  });
  return {
    statusChange: result('status'),
    approvalAssignment: result('assign'),
    approvalMessagesWritten: written?.count,
  };
}

async function measureSender(db: Database) {
  let received = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      stream.resume();
      stream.on('end', () => {
        received += 1;
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as { port: number };
  const user = await createUser(db, { userType: 'KAM', email: `bench.mail.${Date.now()}@inmoflujo.test` });
  await asSystem(db, (tx) =>
    tx.execute(sql`
      insert into mail_messages (kind, user_id, notices, send_after, next_attempt_at)
      select 'test', ${user.id}, '[{"kind":"test"}]'::jsonb, now() - interval '1 minute', now() - interval '1 minute'
        from generate_series(1, ${messageCount})`),
  );
  const transport = smtpTransport(`smtp://127.0.0.1:${port}`);
  const sender = createMailSender({
    db,
    transport,
    from: 'Inmoflujo <no-reply@inmoflujo.local>',
    appUrl: 'http://localhost:3000',
  });
  const started = performance.now();
  const result = await sender.deliverDue();
  const seconds = (performance.now() - started) / 1000;
  transport.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return {
    messages: result.sent,
    received,
    seconds: Number(seconds.toFixed(2)),
    perSecond: Math.round(result.sent / seconds),
  };
}

async function onEngine(engine: string) {
  if (engine === 'pglite') {
    const client = await createPglite();
    await migratePglite(client);
    const handle = pgliteHandle(client);
    try {
      return { commands: await measureCommands(handle.db), sender: await measureSender(handle.db) };
    } finally {
      await handle.close();
    }
  }
  const admin = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = 'inmoflujo_bench_mail';
  const adminClient = new pg.Client({ connectionString: admin });
  await adminClient.connect();
  await adminClient.query(`drop database if exists ${name}`);
  await adminClient.query(`create database ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  const pool = postgresPool(url.toString(), 10);
  const handle = postgresHandle(pool);
  try {
    await migratePostgres(pool);
    return { commands: await measureCommands(handle.db), sender: await measureSender(handle.db) };
  } finally {
    await handle.close();
    await adminClient.query(`drop database if exists ${name}`);
    await adminClient.end();
  }
}

for (const engine of engines) {
  const result = await onEngine(engine);
  console.log(JSON.stringify({ engine, ...result }, null, 2));
}
