// Fills the fresh database the Playwright journeys run on, in one process before the server starts:
// the two fixture accounts of e2e/fixtures.ts, the small 'e2e' dataset of scripts/demo-data.ts (so the
// journeys see a living app) and a few known rows the journeys name: an agency, two projects, and the
// administrator as the default seller.
import { sql } from 'drizzle-orm';
import { actingAs, SYSTEM_ACTOR } from '../src/server/db/actor';
import { type Database, openDatabase, queryRows } from '../src/server/db/client';
import { defaultSeller, mailMessages, projects, realEstateAgencies } from '../src/server/db/schema';
import { loadEnv } from '../src/server/env';
import * as workflows from '../src/server/features/workflows/workflows.service';
import { FIRST_PAYMENT_WORKFLOW } from '../src/shared/domain/workflow/names';
import { actionsOf } from '../src/shared/permissions';
import { createStaffAccount } from './accounts';
import { DEMO_EMAIL_DOMAIN, generateDataset } from './demo-data';

const PASSWORD = 'clave-e2e-segura';
export const E2E_PROJECTS = [
  { name: 'Edificio Los Aromos', stage: 'Etapa 1', commune: 'Ñuñoa', deadline: '2027-03-31', totalUnits: 96 },
  {
    name: 'Parque Vicuña',
    stage: 'Etapa 2',
    commune: 'Providencia',
    deadline: '2025-12-31',
    totalUnits: 140,
  },
];

/**
 * The approvals journey signs in as the demo's Jefe de Inversiones: three first payment flows of the
 * newest commissions without one are opened and moved by the engine up to 'VB Jefe Inversiones',
 * assigned to him (the small dataset leaves him none).
 */
async function openInvestmentHeadApprovals(db: Database, actorId: string, count: number) {
  const [head] = await queryRows<{ id: string }>(
    db,
    sql`select id from profiles where email = ${`rodrigo.saavedra@${DEMO_EMAIL_DOMAIN}`}`,
  );
  if (!head) throw new Error("The demo's Jefe de Inversiones is missing");
  const subjects = await queryRows<{ reservationId: string; commissionId: string }>(
    db,
    sql`select r.id as "reservationId", bc.id as "commissionId"
          from reservations r join broker_commissions bc on bc.reservation_id = r.id
         where r.is_with_broker and not r.is_rescinded
           and not exists (select 1 from flows f where f.kind = 'payment' and f.broker_commission_id = bc.id)
         order by r.reservation_date desc, r.id limit ${count}`,
  );
  if (subjects.length < count) throw new Error('Not enough commissions without a payment flow');
  const actor = { id: actorId, actions: actionsOf('Administrador') };
  const openedAt = Date.now() - 3 * 86_400_000;
  for (const subject of subjects) {
    await db.transaction(async (tx) => {
      const created = await workflows.createFlow(tx, {
        workflowName: FIRST_PAYMENT_WORKFLOW,
        reservationId: subject.reservationId,
        brokerCommissionId: subject.commissionId,
        actorId,
        now: new Date(openedAt),
        // Set-up data, not news: nobody is e-mailed about it (decision 0035).
        notices: false,
      });
      const definition = await workflows.definitionNamed(tx, FIRST_PAYMENT_WORKFLOW);
      const names = new Map(definition.tasks.map((task) => [task.id, task.name]));
      const rowOf = new Map(created.state.tasks.map((task) => [names.get(task.taskId), task.id]));
      await workflows.runCommandsIn(
        tx,
        actor,
        new Date(openedAt + 3_600_000),
        created.flow.id,
        () => [
          { type: 'start' },
          { type: 'setStatus', taskRowId: rowOf.get('Solicitud Liquidación')!, status: 'completed' },
          { type: 'setStatus', taskRowId: rowOf.get('Solicitud a Jefe Inversiones')!, status: 'completed' },
          { type: 'assign', taskRowId: rowOf.get('VB Jefe Inversiones')!, userId: head.id },
        ],
        { notices: false },
      );
    });
  }
}

const env = loadEnv();
const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
try {
  await database.migrate();
  // Set-up writes as 'sistema' in the audit trail (decision 0024).
  const db = actingAs(database.db, SYSTEM_ACTOR);
  const admin = await createStaffAccount(db, {
    email: 'admin@inmoflujo.test',
    password: PASSWORD,
    firstName: 'Alicia',
    lastName: 'Administradora',
    position: 'Gerenta Comercial',
    userType: 'Administrador',
    isSeller: true,
  });
  await createStaffAccount(db, {
    email: 'kam@inmoflujo.test',
    password: PASSWORD,
    firstName: 'Karla',
    lastName: 'Mendoza',
    position: 'KAM',
    userType: 'KAM',
    isSeller: false,
  });
  await generateDataset(db, { scale: 'e2e' });
  await openInvestmentHeadApprovals(db, admin.id, 3);
  await db.transaction(async (tx) => {
    const [agency] = await tx
      .insert(realEstateAgencies)
      .values({
        rut: '96512340-7',
        businessName: 'Inmobiliaria Andes E2E SpA',
        bank: 'Banco de Chile',
        accountType: 'Cuenta Corriente',
        accountNumber: '00-123-45678-9',
      })
      .returning();
    await tx
      .insert(projects)
      .values(E2E_PROJECTS.map((project) => ({ ...project, realEstateAgencyId: agency!.id })));
    await tx
      .insert(defaultSeller)
      .values({ userId: admin.id })
      .onConflictDoUpdate({ target: defaultSeller.singleton, set: { userId: admin.id } });
    // Configuración → Correos shows a message the SMTP server refused for good, to retry (e2e/mail.spec.ts).
    const refusedAt = new Date(Date.now() - 2 * 3_600_000);
    await tx.insert(mailMessages).values({
      kind: 'test',
      userId: admin.id,
      notices: [{ kind: 'test' }],
      status: 'failed',
      sendAfter: refusedAt,
      nextAttemptAt: refusedAt,
      attempts: 1,
      toAddress: 'admin@inmoflujo.test',
      subject: 'Correo de prueba de Inmoflujo',
      lastError: '550 5.1.1 Buzón no disponible (prueba e2e)',
      createdAt: refusedAt,
      updatedAt: refusedAt,
    });
  });
} finally {
  await database.close();
}
