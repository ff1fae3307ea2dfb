import { type SQL, sql } from 'drizzle-orm';
import Papa from 'papaparse';
import { readSheet } from 'read-excel-file/node';
import { describe, expect, it } from 'vitest';
import { AUDIT_TABLES, type AuditedTable } from '../../../shared/audit/fields';
import { AUDIT_TEXT_SEARCH_WINDOW, type AuditEntry, type AuditPage } from '../../../shared/schemas/audit';
import { actingAs, asSystem } from '../../db/actor';
import { type Database, type Executor, queryRows } from '../../db/client';
import { errorOf, loginAs, type TestContext, useTestApp } from '../../test/app';
import {
  createAgency,
  createBroker,
  createClient,
  createProject,
  createReservation,
  createUser,
} from '../../test/builders';
import { createCommission, createSaleFlow } from '../../test/flow-builders';

/** The app's clock: 10:42 on 12 March 2027 in Santiago. */
const NOW = new Date('2027-03-12T13:42:00Z');

/** Tables that are not audited, each for a reason (decision 0024). Anything else must be. */
const NOT_AUDITED = new Set([
  // Token hashes: sign-ins and sign-outs are logged as events instead.
  'sessions',
  // The portal's (decision 0069): token hashes; its sign-ins are events too, its links single-use hashes.
  'broker_sessions',
  'broker_user_tokens',
  // Image bytes: the records that point to them (logos, avatars) are audited.
  'stored_files',
  // Derived, kept by triggers from audited tables.
  'task_inbox',
  'dashboard_project_figures',
  'dashboard_month_figures',
  'dashboard_broker_figures',
  'dashboard_counts',
  // The log itself and its list of audited tables.
  'audit_log',
  'audit_tables',
  // Values a suppression kept by a legal duty: storing and reading them are events of their own
  // ('redact', 'read_blocked'); a row by row log would copy the very values it keeps apart (decision 0027).
  'client_blocked_values',
  // The ledger of suppressions (decision 0054): each suppression is already a 'redact' event; its
  // entry holds only a salted hash and when its bytes were scrubbed.
  'suppression_ledger',
  // Failed sign-ins under hashed keys, deleted once no throttle window counts them (decision 0028).
  'login_failures',
  // The outbox is itself the record of what was sent (Configuración → Correos); a person's choice of
  // notices is their own state, like a read mark; the daily jobs' claims are bookkeeping (decision 0035).
  'mail_messages',
  'mail_preferences',
  'scheduled_runs',
  // A quote's units: a copy written with the quote (audited) and never changed (decision 0071).
  'quote_units',
  // Imports (decision 0033): a run is the record of the audited changes it made (their request id is
  // the run's), with the uploaded file's bytes in parts; its records are what undoing it restores.
  'import_runs',
  'import_run_file_parts',
  // The keyed hashes of the RUTs and e-mails a stored file names (decision 0062): an index of the
  // file's bytes, deleted with them, so that a suppression finds the file; no record of anyone's.
  'import_run_subjects',
  'import_run_records',
  'import_mappings',
  // Documents (decision 0037): the bytes, and each version's file facts; the document's own row,
  // audited, records every new version (its number).
  'document_versions',
  'document_chunks',
  // A price list's prices, never edited (a new list is a new version): the list itself is audited,
  // with how many prices it set (decision 0032).
  'price_list_items',
  // The boleta's withholding by year (decision 0039): the law's schedule, written only by migrations,
  // which are reviewed and pinned (no screen or service writes it).
  'fee_withholding_rates',
  // The automatic UF fetch's attempts (decision 0034): the values it saves are audited (source
  // 'automatic'); an attempt is bookkeeping, and a failed one changes nothing else.
  'uf_fetches',
  // A payment batch's lines (decision 0040): a copy of the broker's bank data and the invoice's amount
  // made with the batch, never edited; the batch's own row, audited, records each change (count, total,
  // paid, cancelled) and each payment's completion is audited on its flow and commission.
  'payment_batch_items',
  // A project's stock version (decision 0032, migration 0035): a number the triggers bump with every
  // audited change to what Disponibilidad shows; it says nothing the audited rows do not.
  'project_stock_versions',
  // A buyer plan's lines (decision 0073): the plan's figures split and dated when the plan is made, and
  // what the payments pay of each, rewritten by the oldest-first allocation with every payment; the
  // plan and the payments, audited, say everything the lines do.
  'buyer_plan_lines',
]);

const BOOKKEEPING = new Set(['version', 'created_at', 'updated_at', 'created_by', 'updated_by']);
/** A person's read mark (a mention's read_at): their own state, never logged (decision 0030). */
const READ_MARK = 'read_at';

interface LogRow {
  id: number;
  actor_id: string | null;
  request_id: string | null;
  action: string;
  table_name: string;
  record_id: string;
  root_table: string;
  root_id: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

async function lastLogId(db: Database): Promise<number> {
  const [row] = await queryRows<{ id: number | null }>(db, sql`select max(id) as id from audit_log`);
  return Number(row?.id ?? 0);
}

async function logSince(db: Database, id: number): Promise<LogRow[]> {
  return queryRows<LogRow>(
    db,
    sql`select id, actor_id, request_id, action, table_name, record_id, root_table, root_id, before, after
          from audit_log where id > ${id} order by id`,
  );
}

/** Runs statements as a user, in one transaction (as a request of theirs does). */
function asUser(db: Database, userId: string, work: (tx: Database) => Promise<unknown>) {
  return actingAs(db, { userId }).transaction((tx) => work(tx as unknown as Database));
}

/** The database's own message of a refused statement (drizzle wraps it as the cause). */
async function failureOf(statement: Promise<unknown>): Promise<string> {
  try {
    await statement;
    return 'no failure';
  } catch (error) {
    const { message, cause } = error as { message: string; cause?: { message?: string } };
    return `${message} ${cause?.message ?? ''}`;
  }
}

async function keyOf(db: Database, statement: SQL): Promise<string> {
  const [row] = await queryRows<{ key: string }>(db, statement);
  return row!.key;
}

/** The rows every table case starts from, made as 'sistema'. */
async function fixture(ctx: TestContext) {
  const admin = await createUser(ctx.db, { firstName: 'Camila', lastName: 'Fuentes' });
  const kam = await createUser(ctx.db, { userType: 'KAM', firstName: 'Karla', lastName: 'Mendoza' });
  const agency = await createAgency(ctx.db);
  const project = await createProject(ctx.db, { realEstateAgencyId: agency.id });
  const client = await createClient(ctx.db);
  const broker = await createBroker(ctx.db);
  const sold = await createReservation(ctx.db, {
    clientId: client.id,
    projectId: project.id,
    isWithBroker: true,
    brokerId: broker.id,
  });
  const flow = await createSaleFlow(ctx.db, { reservationId: sold.id, at: NOW });
  const bare = await createReservation(ctx.db, {
    clientId: client.id,
    projectId: project.id,
    isWithBroker: true,
    brokerId: broker.id,
  });
  const spare = await createReservation(ctx.db, { clientId: client.id, projectId: project.id });
  const ids = await asSystem(ctx.db, async (tx) => {
    const [row] = await queryRows<{ saleWorkflow: string; firstTask: string; role: string; comment: string }>(
      tx,
      sql`with w as (select id from workflows where kind = 'sale'),
               role as (insert into roles (name) values ('auditor') returning id),
               comment as (insert into flow_task_comments (flow_task_id, user_id, content)
                           values (${flow.task('COF PENDIENTE FIRMA')}, ${admin.id}, 'Primer comentario') returning id)
          select (select id from w) as "saleWorkflow",
                 (select t.id from workflow_tasks t join workflow_stages s on s.id = t.stage_id
                   where s.workflow_id = (select id from w) order by s.sort_order, t.sort_order limit 1) as "firstTask",
                 (select id from role) as role, (select id from comment) as comment`,
    );
    const [bareFlow] = await queryRows<{ id: string }>(
      tx,
      sql`insert into flows (workflow_id, kind, reservation_id, status) values (${row!.saleWorkflow}, 'sale', ${bare.id}, 'pending') returning id`,
    );
    await tx.execute(sql`delete from default_seller`);
    return { ...row!, bareFlow: bareFlow!.id };
  });
  const [payment] = await queryRows<{ first: string; second: string; last: string }>(
    ctx.db,
    sql`select (array_agg(t.id order by s.sort_order, t.sort_order))[1] as first,
               (array_agg(t.id order by s.sort_order, t.sort_order))[2] as second,
               (array_agg(t.id order by s.sort_order desc, t.sort_order desc))[1] as last
          from workflow_tasks t join workflow_stages s on s.id = t.stage_id join workflows w on w.id = s.workflow_id
         where w.name = 'Flujo de Pago Principal'`,
  );
  return { admin, kam, agency, project, client, broker, sold, flow, bare, spare, payment: payment!, ...ids };
}
type Fixture = Awaited<ReturnType<typeof fixture>>;

interface TableCase {
  table: AuditedTable;
  /** Inserts one row and returns its key as the log writes it (`… returning <key> as key`). */
  insert: (f: Fixture) => SQL;
  /** One column changed: its value before and after, as the log holds them. */
  update: {
    set: (key: string, f: Fixture) => SQL;
    column: string;
    before: (f: Fixture) => unknown;
    after: (f: Fixture) => unknown;
  };
  remove: (key: string) => SQL;
  /** The record whose 'Historial' shows it (null: none, a setting). */
  root: (key: string, f: Fixture) => string | null;
  /** Set-up before the insert, as 'sistema' (a single-row setting must be emptied first). */
  prepare?: SQL;
}

const CASES: TableCase[] = [
  {
    table: 'clients',
    insert: () =>
      sql`insert into clients (rut, first_name, last_name, birth_date) values ('11111111-1', 'Rosa', 'Pino', '1990-01-02') returning id::text as key`,
    update: {
      set: (key) => sql`update clients set phone = '+56 9 1234 5678' where id = ${key}`,
      column: 'phone',
      before: () => null,
      after: () => '+56 9 1234 5678',
    },
    remove: (key) => sql`delete from clients where id = ${key}`,
    root: (key) => key,
  },
  {
    table: 'brokers',
    insert: () =>
      sql`insert into brokers (rut, name, business_name, legal_representative, legal_representative_rut, commercial_address,
            commercial_address_commune, commercial_contact_name, constitution_date, constitution_notary, kam_name)
          values ('76086428-5', 'Broker Auditado', 'Auditado SpA', 'Ana', '12345678-5', 'Calle 1', 'Ñuñoa', 'Pedro',
                  '2015-01-01', 'Notaría', 'Karla') returning id::text as key`,
    update: {
      set: (key) => sql`update brokers set kam_receives_commission = true where id = ${key}`,
      column: 'kam_receives_commission',
      before: () => false,
      after: () => true,
    },
    remove: (key) => sql`delete from brokers where id = ${key}`,
    root: (key) => key,
  },
  {
    table: 'reservations',
    insert: (f) =>
      sql`insert into reservations (reservation_number, client_id, project_id, reservation_date, apartment_number)
          values ('AUD-1', ${f.client.id}, ${f.project.id}, '2027-03-01', '901') returning id::text as key`,
    update: {
      set: (key) => sql`update reservations set apartment_price = 3100.5 where id = ${key}`,
      column: 'apartment_price',
      before: () => '0.00',
      after: () => '3100.50',
    },
    remove: (key) => sql`delete from reservations where id = ${key}`,
    root: (key) => key,
  },
  {
    table: 'promotions',
    insert: (f) =>
      sql`insert into promotions (reservation_id, amount, beneficiary, rut, bank, account_type, account_number, email)
          values (${f.sold.id}, 10, 'María Soto', '12345678-5', 'Banco Estado', 'Cuenta Vista', '123', 'maria@correo.cl')
          returning id::text as key`,
    update: {
      set: (key) => sql`update promotions set amount = 12.5 where id = ${key}`,
      column: 'amount',
      before: () => '10.00',
      after: () => '12.50',
    },
    remove: (key) => sql`delete from promotions where id = ${key}`,
    root: (_key, f) => f.sold.id,
  },
  {
    table: 'broker_commissions',
    insert: (f) =>
      sql`insert into broker_commissions (reservation_id, broker_id, commission_amount) values (${f.bare.id}, ${f.broker.id}, 120)
          returning id::text as key`,
    update: {
      set: (key) => sql`update broker_commissions set commission_amount = 135.5 where id = ${key}`,
      column: 'commission_amount',
      before: () => '120.00',
      after: () => '135.50',
    },
    remove: (key) => sql`delete from broker_commissions where id = ${key}`,
    root: (_key, f) => f.bare.id,
  },
  {
    table: 'flows',
    insert: (f) =>
      sql`insert into flows (workflow_id, kind, reservation_id, status) values (${f.saleWorkflow}, 'sale', ${f.spare.id}, 'pending')
          returning id::text as key`,
    update: {
      set: (key) => sql`update flows set status = 'in_progress' where id = ${key}`,
      column: 'status',
      before: () => 'pending',
      after: () => 'in_progress',
    },
    remove: (key) => sql`delete from flows where id = ${key}`,
    root: (key) => key,
  },
  {
    table: 'flow_tasks',
    insert: (f) =>
      sql`insert into flow_tasks (flow_id, task_id, status) values (${f.bareFlow}, ${f.firstTask}, 'blocked') returning id::text as key`,
    update: {
      set: (key) => sql`update flow_tasks set status = 'pending' where id = ${key}`,
      column: 'status',
      before: () => 'blocked',
      after: () => 'pending',
    },
    remove: (key) => sql`delete from flow_tasks where id = ${key}`,
    root: (_key, f) => f.bareFlow,
  },
  {
    table: 'flow_task_assignees',
    insert: (f) =>
      sql`insert into flow_task_assignees (flow_task_id, flow_id, user_id) values (${f.flow.task('PENDIENTE VB PROMESA')}, ${f.flow.id}, ${f.kam.id})
          returning flow_task_id || ':' || user_id as key`,
    update: {
      set: (key, f) =>
        sql`update flow_task_assignees set assigned_by = ${f.admin.id} where flow_task_id || ':' || user_id = ${key}`,
      column: 'assigned_by',
      before: () => null,
      after: (f) => f.admin.id,
    },
    remove: (key) => sql`delete from flow_task_assignees where flow_task_id || ':' || user_id = ${key}`,
    root: (_key, f) => f.flow.id,
  },
  {
    table: 'flow_task_comments',
    insert: (f) =>
      sql`insert into flow_task_comments (flow_task_id, user_id, content) values (${f.flow.task('COF PENDIENTE FIRMA')}, ${f.admin.id}, 'Hola')
          returning id::text as key`,
    update: {
      set: (key) => sql`update flow_task_comments set content = 'Hola de nuevo' where id = ${key}`,
      column: 'content',
      before: () => 'Hola',
      after: () => 'Hola de nuevo',
    },
    remove: (key) => sql`delete from flow_task_comments where id = ${key}`,
    root: (_key, f) => f.flow.id,
  },
  {
    table: 'flow_task_rejections',
    insert: (f) =>
      sql`insert into flow_task_rejections (flow_task_id, flow_id, rejected_by, rejected_at, reason)
          values (${f.flow.task('COF PENDIENTE FIRMA')}, ${f.flow.id}, ${f.admin.id}, now(), 'Falta la firma')
          returning id::text as key`,
    update: {
      set: (key) =>
        sql`update flow_task_rejections set reason = 'Falta la firma del cliente' where id = ${key}`,
      column: 'reason',
      before: () => 'Falta la firma',
      after: () => 'Falta la firma del cliente',
    },
    remove: (key) => sql`delete from flow_task_rejections where id = ${key}`,
    root: (_key, f) => f.flow.id,
  },
  {
    table: 'data_subject_requests',
    insert: (f) =>
      sql`insert into data_subject_requests (kind, holder_rut, received_date, created_by)
          values ('access', '11111111-1', '2026-11-02', ${f.admin.id}) returning id::text as key`,
    update: {
      set: (key) => sql`update data_subject_requests set status = 'in_progress' where id = ${key}`,
      column: 'status',
      before: () => 'pending',
      after: () => 'in_progress',
    },
    remove: (key) => sql`delete from data_subject_requests where id = ${key}`,
    root: (key) => key,
  },
  {
    table: 'privacy_settings',
    prepare: sql`delete from privacy_settings`,
    insert: () => sql`insert into privacy_settings (retention_years) values (7) returning id::text as key`,
    update: {
      set: () => sql`update privacy_settings set retention_years = 9`,
      column: 'retention_years',
      before: () => 7,
      after: () => 9,
    },
    remove: () => sql`delete from privacy_settings`,
    root: () => null,
  },
  {
    table: 'payment_settings',
    prepare: sql`delete from payment_settings`,
    insert: () =>
      sql`insert into payment_settings (paid_date_business_days) values (5) returning id::text as key`,
    update: {
      set: () => sql`update payment_settings set paid_date_business_days = 3`,
      column: 'paid_date_business_days',
      before: () => 5,
      after: () => 3,
    },
    remove: () => sql`delete from payment_settings`,
    root: () => null,
  },
  {
    table: 'quote_settings',
    insert: (f) =>
      sql`insert into quote_settings (project_id, validity_days) values (${f.project.id}, 10)
          returning project_id::text as key`,
    update: {
      set: (key) => sql`update quote_settings set validity_days = 15 where project_id = ${key}`,
      column: 'validity_days',
      before: () => 10,
      after: () => 15,
    },
    remove: (key) => sql`delete from quote_settings where project_id = ${key}`,
    root: (key) => key,
  },
  {
    table: 'quotes',
    insert: (f) =>
      sql`insert into quotes (project_id, prospect_name, prospect_email, quote_date, valid_until, uf_date, uf_value,
            apartment_price, parking_price, storage_price, list_price, final_price, reservation_amount,
            down_payment_fraction, down_payment, installments, credit_amount)
          values (${f.project.id}, 'Ana Prospecto', 'ana@example.cl', '2027-03-12', '2027-03-22', '2027-03-12', 38000,
            3000, 0, 0, 3000, 3000, 20, 0.2, 600, 10, 2400)
          returning id::text as key`,
    update: {
      set: (key) => sql`update quotes set installments = 12 where id = ${key}`,
      column: 'installments',
      before: () => 10,
      after: () => 12,
    },
    remove: (key) => sql`delete from quotes where id = ${key}`,
    root: (key) => key,
  },
  {
    table: 'broker_users',
    insert: (f) =>
      sql`insert into broker_users (broker_id, name, email)
          values (${f.broker.id}, 'Paula Rojas', 'paula.auditada@corredora.cl')
          returning id::text as key`,
    update: {
      set: (key) => sql`update broker_users set is_active = false where id = ${key}::uuid`,
      column: 'is_active',
      before: () => true,
      after: () => false,
    },
    remove: (key) => sql`delete from broker_users where id = ${key}::uuid`,
    root: (_key, f) => f.broker.id,
  },
  {
    table: 'permission_grants',
    insert: () =>
      sql`insert into permission_grants (action, user_type, granted) values ('audit.read', 'KAM', true)
          returning action || ':' || user_type as key`,
    update: {
      set: () => sql`update permission_grants set granted = false`,
      column: 'granted',
      before: () => true,
      after: () => false,
    },
    remove: () => sql`delete from permission_grants`,
    root: () => null,
  },
  {
    table: 'documents',
    insert: (f) =>
      sql`insert into documents (reservation_id, document_type_id, name)
          values (${f.sold.id}, (select id from document_types where name = 'Promesa firmada'), 'promesa.pdf')
          returning id::text as key`,
    update: {
      set: (key) => sql`update documents set name = 'Promesa firmada.pdf' where id = ${key}::uuid`,
      column: 'name',
      before: () => 'promesa.pdf',
      after: () => 'Promesa firmada.pdf',
    },
    remove: (key) => sql`delete from documents where id = ${key}::uuid`,
    root: (_key, f) => f.sold.id,
  },
  {
    table: 'broker_invoices',
    insert: (f) =>
      sql`insert into broker_invoices (flow_task_id, flow_id, broker_id, kind, issuer_rut, folio, issue_date,
            received_date, net_amount, vat_amount, total_amount, source)
          values (${f.flow.task('COF PENDIENTE FIRMA')}, ${f.flow.id}, ${f.broker.id}, 'taxed', ${f.broker.rut}, '101',
            '2027-03-01', '2027-03-02', 1000000, 190000, 1190000, 'manual')
          returning id::text as key`,
    update: {
      set: (key) => sql`update broker_invoices set folio = '102' where id = ${key}::uuid`,
      column: 'folio',
      before: () => '101',
      after: () => '102',
    },
    remove: (key) => sql`delete from broker_invoices where id = ${key}::uuid`,
    root: (_key, f) => f.flow.id,
  },
  {
    table: 'document_types',
    insert: () =>
      sql`insert into document_types (name, sort_order) values ('Certificado de dominio', 20) returning id::text as key`,
    update: {
      set: (key) => sql`update document_types set is_restricted = true where id = ${key}::uuid`,
      column: 'is_restricted',
      before: () => false,
      after: () => true,
    },
    remove: (key) => sql`delete from document_types where id = ${key}::uuid`,
    root: (key) => key,
  },
  {
    table: 'document_type_requirements',
    insert: (f) =>
      sql`insert into document_type_requirements (document_type_id, workflow_task_id)
          values ((select id from document_types where name = 'Escritura'), ${f.firstTask})
          returning document_type_id || ':' || workflow_task_id as key`,
    update: {
      set: (key, f) =>
        sql`update document_type_requirements set workflow_task_id = ${f.payment.first}
             where document_type_id || ':' || workflow_task_id = ${key}`,
      column: 'workflow_task_id',
      before: (f) => f.firstTask,
      after: (f) => f.payment.first,
    },
    remove: (key) =>
      sql`delete from document_type_requirements where document_type_id || ':' || workflow_task_id = ${key}`,
    root: (key) => key.split(':')[0]!,
  },
  {
    table: 'holidays',
    insert: () =>
      sql`insert into holidays (day, name) values ('2028-01-01', 'Año Nuevo') returning day::text as key`,
    update: {
      set: (key) => sql`update holidays set name = 'Año Nuevo 2028' where day = ${key}::date`,
      column: 'name',
      before: () => 'Año Nuevo',
      after: () => 'Año Nuevo 2028',
    },
    remove: (key) => sql`delete from holidays where day = ${key}::date`,
    root: () => null,
  },
  {
    table: 'uf_values',
    insert: () =>
      sql`insert into uf_values (date, value, source) values ('2026-11-20', '40123.45', 'user') returning date::text as key`,
    update: {
      set: (key) => sql`update uf_values set value = '40123.46' where date = ${key}::date`,
      column: 'value',
      before: () => '40123.45',
      after: () => '40123.46',
    },
    remove: (key) => sql`delete from uf_values where date = ${key}::date`,
    root: () => null,
  },
  {
    table: 'payment_batches',
    insert: () =>
      sql`insert into payment_batches (payment_count, total_clp) values (2, '1500000') returning id::text as key`,
    update: {
      set: (key) => sql`update payment_batches set total_clp = '1500001' where id = ${key}::uuid`,
      column: 'total_clp',
      before: () => '1500000',
      after: () => '1500001',
    },
    remove: (key) => sql`delete from payment_batches where id = ${key}::uuid`,
    root: (key) => key,
  },
  {
    table: 'buyer_plans',
    insert: (f) =>
      sql`insert into buyer_plans (reservation_id, reservation_amount, promise_amount, down_payment_amount,
            installment_count, credit_amount, subsidy_amount, promise_date)
          values (${f.bare.id}, 20, 180, 300, 3, 2400, 100, '2027-01-31') returning id::text as key`,
    update: {
      set: (key) => sql`update buyer_plans set paid_amount = 12.5 where id = ${key}::uuid`,
      column: 'paid_amount',
      before: () => '0.0000',
      after: () => '12.5000',
    },
    remove: (key) => sql`delete from buyer_plans where id = ${key}::uuid`,
    root: (_key, f) => f.bare.id,
  },
  {
    table: 'buyer_payments',
    // The reservations' plans first, as set-up ('sistema').
    prepare: sql`insert into buyer_plans (reservation_id, reservation_amount, promise_amount, down_payment_amount,
        installment_count, credit_amount, subsidy_amount, promise_date)
      select id, 20, 180, 300, 3, 2400, 100, '2027-01-31' from reservations`,
    insert: (f) =>
      sql`insert into buyer_payments (plan_id, reservation_id, paid_date, amount, means, document_number)
          select id, reservation_id, '2027-03-01', 100, 'cheque', '445566' from buyer_plans
           where reservation_id = ${f.sold.id}
          returning id::text as key`,
    update: {
      set: (key) => sql`update buyer_payments set document_number = '445567' where id = ${key}::uuid`,
      column: 'document_number',
      before: () => '445566',
      after: () => '445567',
    },
    remove: (key) => sql`delete from buyer_payments where id = ${key}::uuid`,
    root: (_key, f) => f.sold.id,
  },
  {
    table: 'flow_task_comment_mentions',
    insert: (f) =>
      sql`insert into flow_task_comment_mentions (comment_id, user_id) values (${f.comment}, ${f.kam.id}) returning comment_id || ':' || user_id as key`,
    update: {
      set: (key, f) =>
        sql`update flow_task_comment_mentions set user_id = ${f.admin.id} where comment_id || ':' || user_id = ${key}`,
      column: 'user_id',
      before: (f) => f.kam.id,
      after: (f) => f.admin.id,
    },
    remove: (key) => sql`delete from flow_task_comment_mentions where comment_id || ':' || user_id = ${key}`,
    root: (_key, f) => f.flow.id,
  },
  {
    table: 'real_estate_agencies',
    insert: () =>
      sql`insert into real_estate_agencies (rut, business_name, bank, account_type, account_number)
          values ('96512340-7', 'Inmobiliaria Auditada SpA', 'Banco de Chile', 'Cuenta Corriente', '1') returning id::text as key`,
    update: {
      set: (key) => sql`update real_estate_agencies set bank = 'Banco Estado' where id = ${key}`,
      column: 'bank',
      before: () => 'Banco de Chile',
      after: () => 'Banco Estado',
    },
    remove: (key) => sql`delete from real_estate_agencies where id = ${key}`,
    root: (key) => key,
  },
  {
    table: 'projects',
    insert: (f) =>
      sql`insert into projects (name, stage, commune, deadline, real_estate_agency_id)
          values ('Edificio Auditado', 'Etapa 1', 'Ñuñoa', '2028-01-31', ${f.agency.id}) returning id::text as key`,
    update: {
      set: (key) => sql`update projects set commune = 'Providencia' where id = ${key}`,
      column: 'commune',
      before: () => 'Ñuñoa',
      after: () => 'Providencia',
    },
    remove: (key) => sql`delete from projects where id = ${key}`,
    root: (key) => key,
  },
  {
    table: 'units',
    insert: (f) =>
      sql`insert into units (project_id, kind, number) values (${f.project.id}, 'apartment', '901') returning id::text as key`,
    update: {
      set: (key) => sql`update units set number = '902' where id = ${key}`,
      column: 'number',
      before: () => '901',
      after: () => '902',
    },
    remove: (key) => sql`delete from units where id = ${key}`,
    root: (_key, f) => f.project.id,
  },
  {
    table: 'price_lists',
    insert: (f) =>
      sql`insert into price_lists (project_id, effective_date, price_count) values (${f.project.id}, '2026-01-01', 0)
          returning id::text as key`,
    update: {
      set: (key) => sql`update price_lists set price_count = 3 where id = ${key}`,
      column: 'price_count',
      before: () => 0,
      after: () => 3,
    },
    remove: (key) => sql`delete from price_lists where id = ${key}`,
    root: (_key, f) => f.project.id,
  },
  {
    table: 'project_policies',
    insert: (f) =>
      sql`insert into project_policies (project_id, reservation_amount) values (${f.project.id}, 20)
          returning project_id::text as key`,
    update: {
      set: (key) => sql`update project_policies set reservation_amount = 25 where project_id = ${key}`,
      column: 'reservation_amount',
      before: () => '20.00',
      after: () => '25.00',
    },
    remove: (key) => sql`delete from project_policies where project_id = ${key}`,
    root: (key) => key,
  },
  {
    table: 'reservation_units',
    prepare: sql`insert into units (id, project_id, kind, number)
                 values ('00000000-0000-4000-8000-00000000a001', (select id from projects limit 1), 'apartment', 'RU-1')`,
    insert: (f) =>
      sql`insert into reservation_units (reservation_id, unit_id, price)
          values (${f.spare.id}, '00000000-0000-4000-8000-00000000a001', 100)
          returning reservation_id::text || ':' || unit_id::text as key`,
    update: {
      set: (key) =>
        sql`update reservation_units set price = 110 where reservation_id::text || ':' || unit_id::text = ${key}`,
      column: 'price',
      before: () => '100.00',
      after: () => '110.00',
    },
    remove: (key) =>
      sql`delete from reservation_units where reservation_id::text || ':' || unit_id::text = ${key}`,
    root: (_key, f) => f.spare.id,
  },
  {
    table: 'profiles',
    insert: () =>
      sql`insert into profiles (email, password_hash, first_name, last_name, position, user_type)
          values ('auditada@inmoflujo.test', '$argon2id$secreto', 'Olga', 'Paz', 'Analista', 'KAM') returning id::text as key`,
    update: {
      set: (key) => sql`update profiles set position = 'Jefa' where id = ${key}`,
      column: 'position',
      before: () => 'Analista',
      after: () => 'Jefa',
    },
    remove: (key) => sql`delete from profiles where id = ${key}`,
    root: (key) => key,
  },
  {
    table: 'roles',
    insert: () => sql`insert into roles (name) values ('revisor') returning id::text as key`,
    update: {
      set: (key) => sql`update roles set description = 'Revisa' where id = ${key}`,
      column: 'description',
      before: () => null,
      after: () => 'Revisa',
    },
    remove: (key) => sql`delete from roles where id = ${key}`,
    root: (key) => key,
  },
  {
    table: 'user_roles',
    insert: (f) =>
      sql`insert into user_roles (user_id, role_id) values (${f.kam.id}, ${f.role}) returning user_id || ':' || role_id as key`,
    update: {
      set: (key, f) =>
        sql`update user_roles set user_id = ${f.admin.id} where user_id || ':' || role_id = ${key}`,
      column: 'user_id',
      before: (f) => f.kam.id,
      after: (f) => f.admin.id,
    },
    remove: (key) => sql`delete from user_roles where user_id || ':' || role_id = ${key}`,
    root: (_key, f) => f.kam.id,
  },
  {
    table: 'default_seller',
    insert: (f) => sql`insert into default_seller (user_id) values (${f.admin.id}) returning id::text as key`,
    update: {
      set: (key, f) => sql`update default_seller set user_id = ${f.kam.id} where id = ${key}`,
      column: 'user_id',
      before: (f) => f.admin.id,
      after: (f) => f.kam.id,
    },
    remove: (key) => sql`delete from default_seller where id = ${key}`,
    root: (key) => key,
  },
  {
    table: 'workflows',
    insert: () =>
      sql`insert into workflows (name, kind, task_opening) values ('Flujo de prueba', 'sale', 'stage') returning id::text as key`,
    update: {
      set: (key) => sql`update workflows set single_assignee = true where id = ${key}`,
      column: 'single_assignee',
      before: () => false,
      after: () => true,
    },
    remove: (key) => sql`delete from workflows where id = ${key}`,
    root: (key) => key,
  },
  {
    table: 'workflow_stages',
    insert: (f) =>
      sql`insert into workflow_stages (workflow_id, name, sort_order) values (${f.saleWorkflow}, 'Posventa', 99) returning id::text as key`,
    update: {
      set: (key) => sql`update workflow_stages set name = 'Post venta' where id = ${key}`,
      column: 'name',
      before: () => 'Posventa',
      after: () => 'Post venta',
    },
    remove: (key) => sql`delete from workflow_stages where id = ${key}`,
    root: (_key, f) => f.saleWorkflow,
  },
  {
    table: 'workflow_tasks',
    insert: (f) =>
      sql`insert into workflow_tasks (stage_id, name, sort_order)
          values ((select stage_id from workflow_tasks where id = ${f.firstTask}), 'TAREA DE PRUEBA', 99) returning id::text as key`,
    update: {
      set: (key) => sql`update workflow_tasks set days_to_complete = 3 where id = ${key}`,
      column: 'days_to_complete',
      before: () => null,
      after: () => 3,
    },
    remove: (key) => sql`delete from workflow_tasks where id = ${key}`,
    root: (_key, f) => f.saleWorkflow,
  },
  {
    table: 'workflow_task_prerequisites',
    insert: (f) =>
      sql`insert into workflow_task_prerequisites (task_id, prerequisite_task_id) values (${f.payment.last}, ${f.payment.first})
          returning task_id || ':' || prerequisite_task_id as key`,
    update: {
      set: (key, f) =>
        sql`update workflow_task_prerequisites set prerequisite_task_id = ${f.payment.second} where task_id || ':' || prerequisite_task_id = ${key}`,
      column: 'prerequisite_task_id',
      before: (f) => f.payment.first,
      after: (f) => f.payment.second,
    },
    remove: (key) =>
      sql`delete from workflow_task_prerequisites where task_id || ':' || prerequisite_task_id = ${key}`,
    root: () => '',
  },
  {
    table: 'workflow_task_default_assignees',
    insert: (f) =>
      sql`insert into workflow_task_default_assignees (task_id, user_id) values (${f.firstTask}, ${f.kam.id})
          returning task_id || ':' || user_id as key`,
    update: {
      set: (key, f) =>
        sql`update workflow_task_default_assignees set user_id = ${f.admin.id} where task_id || ':' || user_id = ${key}`,
      column: 'user_id',
      before: (f) => f.kam.id,
      after: (f) => f.admin.id,
    },
    remove: (key) =>
      sql`delete from workflow_task_default_assignees where task_id || ':' || user_id = ${key}`,
    root: (_key, f) => f.saleWorkflow,
  },
];

describe('the audit trail', () => {
  const ctx = useTestApp({ now: () => NOW });

  it('audits every table but the few listed with their reason, and names every audited column in Spanish', async () => {
    const tables = await queryRows<{ name: string }>(
      ctx.db,
      sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
    );
    const audited = (
      await queryRows<{ name: string }>(ctx.db, sql`select table_name as name from audit_tables`)
    ).map((row) => row.name);
    expect(new Set(audited)).toEqual(new Set(Object.keys(AUDIT_TABLES)));
    const unaudited = tables.map((row) => row.name).filter((name) => !audited.includes(name));
    expect(new Set(unaudited)).toEqual(NOT_AUDITED);
    expect(CASES.map((c) => c.table).sort()).toEqual(Object.keys(AUDIT_TABLES).sort());

    const columns = await queryRows<{ table: string; column: string }>(
      ctx.db,
      sql`select table_name as table, column_name as column from information_schema.columns
           where table_schema = 'public' and is_generated <> 'ALWAYS'`,
    );
    for (const table of audited as AuditedTable[]) {
      const own = columns
        // Search columns copy audited values (reservations' copy of their client's name): never logged.
        .filter(
          (row) =>
            row.table === table &&
            !BOOKKEEPING.has(row.column) &&
            !row.column.endsWith('search_text') &&
            row.column !== READ_MARK,
        )
        .map((row) => row.column);
      expect(new Set(Object.keys(AUDIT_TABLES[table].fields)), table).toEqual(new Set(own));
    }
  });

  it("inlines each table's document and key into the logging statement, a table audited later too (STABLE, not IMMUTABLE)", async () => {
    const volatilities = async (executor: Executor) =>
      queryRows<{ name: string; volatility: string }>(
        executor,
        sql`select p.proname as name, p.provolatile as volatility
              from pg_proc p join audit_tables a
                on p.proname in ('audit_' || a.table_name || '_doc', 'audit_' || a.table_name || '_key')`,
      );
    const installed = await volatilities(ctx.db);
    expect(installed).toHaveLength(2 * Object.keys(AUDIT_TABLES).length);
    expect(installed.filter((row) => row.volatility !== 's')).toEqual([]);
    // Inlined: the plan computes the document itself instead of calling the function once per row.
    const plan = await queryRows<{ 'QUERY PLAN': string }>(
      ctx.db,
      sql`explain (verbose, costs off) select audit_clients_doc(c), audit_clients_key(c) from clients c`,
    );
    const output = plan.map((row) => row['QUERY PLAN']).join('\n');
    expect(output).toContain('to_jsonb(c.*)');
    expect(output).not.toMatch(/audit_clients_(doc|key)/);

    // A table a later migration audits gets the same declarations from audit_install. Rolled back:
    // the test database's schema stays as migrated.
    const rolledBack = new Error('rolled back');
    await expect(
      ctx.db.transaction(async (tx) => {
        await tx.execute(sql`create table audit_probe (id uuid primary key, at date not null)`);
        await tx.execute(sql`select audit_install('audit_probe', '{id,at}', 'audit_probe', 'r.id')`);
        const probe = (await volatilities(tx)).filter((row) => row.name.startsWith('audit_audit_probe_'));
        expect(probe.sort((a, b) => a.name.localeCompare(b.name))).toEqual([
          { name: 'audit_audit_probe_doc', volatility: 's' },
          { name: 'audit_audit_probe_key', volatility: 's' },
        ]);
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);
  });

  it.each(CASES)(
    '$table: an insert, an update and a delete leave one row each, with the actor and the values',
    async (tableCase) => {
      const f = await fixture(ctx);
      if (tableCase.prepare) await ctx.db.execute(tableCase.prepare);
      const start = await lastLogId(ctx.db);
      let key = '';
      await asUser(ctx.appDb, f.admin.id, async (tx) => {
        key = await keyOf(tx, tableCase.insert(f));
      });
      const inserted = await logSince(ctx.db, start);
      expect(inserted).toHaveLength(1);
      expect(inserted[0]).toMatchObject({
        actor_id: f.admin.id,
        action: 'insert',
        table_name: tableCase.table,
        record_id: key,
        before: null,
      });
      expect(inserted[0]!.after).toHaveProperty(tableCase.update.column, tableCase.update.before(f));
      const root = tableCase.root(key, f);
      if (root) expect(inserted[0]!.root_id).toBe(root);

      await asUser(ctx.appDb, f.admin.id, (tx) => tx.execute(tableCase.update.set(key, f)));
      const updated = await logSince(ctx.db, inserted[0]!.id);
      expect(updated).toHaveLength(1);
      expect(updated[0]).toMatchObject({
        actor_id: f.admin.id,
        action: 'update',
        table_name: tableCase.table,
        before: { [tableCase.update.column]: tableCase.update.before(f) },
        after: { [tableCase.update.column]: tableCase.update.after(f) },
      });
      // Only what changed: the bookkeeping (version, updated_at) never appears.
      expect(Object.keys(updated[0]!.after!)).toEqual([tableCase.update.column]);
      const newKey = updated[0]!.record_id;

      await asUser(ctx.appDb, f.admin.id, (tx) => tx.execute(tableCase.remove(newKey)));
      const removed = await logSince(ctx.db, updated[0]!.id);
      expect(removed).toHaveLength(1);
      expect(removed[0]).toMatchObject({
        actor_id: f.admin.id,
        action: 'delete',
        record_id: newKey,
        after: null,
      });
      expect(removed[0]!.before).toHaveProperty(tableCase.update.column, tableCase.update.after(f));
    },
  );

  it("logs a client's rename once: the copy of the name each reservation keeps for the search is no change of theirs", async () => {
    const f = await fixture(ctx);
    const start = await lastLogId(ctx.db);
    await asUser(ctx.appDb, f.admin.id, (tx) =>
      tx.execute(sql`update clients set last_name = 'Renombrado' where id = ${f.client.id}`),
    );
    expect(await logSince(ctx.db, start)).toMatchObject([
      { action: 'update', table_name: 'clients', after: { last_name: 'Renombrado' } },
    ]);
    const copies = await queryRows<{ copy: string }>(
      ctx.db,
      sql`select client_search_text as copy from reservations where client_id = ${f.client.id}`,
    );
    expect(copies.length).toBeGreaterThan(1);
    for (const { copy } of copies) expect(copy).toContain('renombrado');
  });

  it('refuses a change that declares no actor, and records sistema when it says so', async () => {
    const f = await fixture(ctx);
    expect(
      await failureOf(ctx.appDb.execute(sql`update clients set phone = '1' where id = ${f.client.id}`)),
    ).toMatch(/needs an actor/);
    const start = await lastLogId(ctx.db);
    await asSystem(ctx.db, (tx) => tx.execute(sql`update clients set phone = '2' where id = ${f.client.id}`));
    expect(await logSince(ctx.db, start)).toMatchObject([
      { actor_id: null, action: 'update', after: { phone: '2' } },
    ]);
  });

  it('keeps the log append-only: UPDATE, DELETE and TRUNCATE raise, whoever asks', async () => {
    await fixture(ctx);
    for (const statement of [
      sql`update audit_log set actor_id = null`,
      sql`delete from audit_log`,
      sql`truncate audit_log`,
    ]) {
      expect(await failureOf(asSystem(ctx.db, (tx) => tx.execute(statement)))).toMatch(/append-only/);
    }
    expect(await lastLogId(ctx.db)).toBeGreaterThan(0);
  });

  it('writes nothing when the change does not commit: a failure in a multi-step write leaves no row', async () => {
    const f = await fixture(ctx);
    const admin = await loginAs(ctx);
    // The reservation, then its sale flow: refuse the flow's task rows, so the second step fails.
    await asSystem(ctx.db, async (tx) => {
      await tx.execute(sql`create function refuse_tasks() returns trigger language plpgsql as $$
        begin raise exception 'injected failure'; end $$`);
      await tx.execute(
        sql`create trigger refuse_tasks before insert on flow_tasks for each statement execute function refuse_tasks()`,
      );
    });
    const start = await lastLogId(ctx.db);
    const response = await admin.post('/api/reservations', {
      reservationNumber: 'AUD-FALLA',
      clientId: f.client.id,
      projectId: f.project.id,
      sellerId: null,
      reservationDate: '2027-03-01',
      apartmentNumber: '1001',
      parkingNumber: null,
      storageNumber: null,
      apartmentPrice: '3000',
      parkingPrice: '0',
      storagePrice: '0',
      columnDiscount: '0',
      additionalDiscount: '0',
      otherDiscount: '0',
      reservationPayment: '0',
      promisePayment: '0',
      downPayment: '0',
      creditPayment: '0',
      subsidyPayment: '0',
      isWithBroker: false,
      brokerId: null,
    });
    expect(response.statusCode).toBe(500);
    expect(await logSince(ctx.db, start)).toEqual([]);
    const [kept] = await queryRows<{ n: number }>(
      ctx.db,
      sql`select count(*) as n from reservations where reservation_number = 'AUD-FALLA'`,
    );
    expect(kept!.n).toBe(0);
  });

  it('names the user and the request of a change made through the API; a password never, only that it changed', async () => {
    const f = await fixture(ctx);
    const admin = await loginAs(ctx, { firstName: 'Camila', lastName: 'Fuentes' });
    const start = await lastLogId(ctx.db);
    const read = (await admin.get(`/api/clients/${f.client.id}`)).json().client;
    const edited = await admin.put(`/api/clients/${f.client.id}`, {
      rut: read.rut,
      firstName: read.firstName,
      lastName: read.lastName,
      birthDate: read.birthDate,
      phone: '+56 9 8765 4321',
      email: read.email,
      version: read.version,
    });
    expect(edited.statusCode).toBe(200);
    const [change] = await logSince(ctx.db, start);
    expect(change).toMatchObject({
      actor_id: admin.user!.id,
      action: 'update',
      table_name: 'clients',
      before: { phone: null },
      after: { phone: '+56 9 8765 4321' },
    });
    expect(change!.request_id).toMatch(/^[0-9a-f-]{36}$/);

    const password = await admin.put(`/api/settings/users/${f.kam.id}/password`, {
      password: 'otra-clave-segura-1',
    });
    expect(password.statusCode).toBeLessThan(300);
    const [hashes] = await queryRows<{ hashes: string[]; sessions: string[] }>(
      ctx.db,
      sql`select array_agg(password_hash) as hashes, (select array_agg(id) from sessions) as sessions from profiles`,
    );
    const log = JSON.stringify(await logSince(ctx.db, 0));
    for (const secret of [...hashes!.hashes, ...(hashes!.sessions ?? [])]) expect(log).not.toContain(secret);
    expect(log).not.toContain('$argon2');
    const passwordChange = (await logSince(ctx.db, start)).find(
      (row) => row.table_name === 'profiles' && row.record_id === f.kam.id,
    );
    expect(passwordChange).toMatchObject({
      before: { password_hash: '[oculto]' },
      after: { password_hash: '[oculto]' },
    });
  });

  it('records sign-ins and sign-outs as events of the user, with where from and never the token', async () => {
    const start = await lastLogId(ctx.db);
    const user = await loginAs(ctx);
    expect((await user.post('/api/auth/logout')).statusCode).toBe(204);
    const events = (await logSince(ctx.db, start)).filter((row) => row.table_name === 'sessions');
    expect(events.map((row) => row.action)).toEqual(['sign_in', 'sign_out']);
    expect(events.every((row) => row.actor_id === user.user!.id && row.root_id === user.user!.id)).toBe(true);
    expect(events[0]!.after).toHaveProperty('ip');
    expect(JSON.stringify(events)).not.toContain(user.cookie ?? 'no-cookie');
  });

  it('took the state before it began as inserts by sistema (the seeded workflows)', async () => {
    const [counts] = await queryRows<{ tasks: number; logged: number }>(
      ctx.db,
      sql`select (select count(*) from workflow_tasks) as tasks,
                 (select count(*) from audit_log where table_name = 'workflow_tasks' and action = 'insert' and actor_id is null) as logged`,
    );
    expect(counts!.tasks).toBeGreaterThan(0);
    expect(counts!.logged).toBe(counts!.tasks);
  });
});

describe('Historial', () => {
  const ctx = useTestApp({ now: () => NOW });

  it("tells a reservation's commission change in Spanish, with who and when, newest first", async () => {
    const f = await fixture(ctx);
    await createCommission(ctx.db, f.sold, { commissionAmount: '120.00' });
    const admin = await loginAs(ctx, { firstName: 'Camila', lastName: 'Fuentes' });
    const commission = (await admin.get(`/api/reservations/${f.sold.id}`)).json().reservation.commission;
    const saved = await admin.put(`/api/reservations/${f.sold.id}/commission`, {
      commissionAmount: '135.5',
      commissionIncludesTax: commission.commissionIncludesTax,
      commissionForDiscount: commission.commissionForDiscount,
      paysSecondary: commission.paysSecondary,
      numberOfPayments: commission.numberOfPayments,
      firstPaymentPercentage: commission.firstPaymentPercentage,
      version: commission.version,
    });
    expect(saved.statusCode, saved.body).toBe(200);

    const kam = await loginAs(ctx, { userType: 'KAM' });
    const history = await kam.get(`/api/audit/history/reservations/${f.sold.id}?pageSize=5`);
    expect(history.statusCode).toBe(200);
    const page = history.json() as AuditPage;
    const newest = page.rows[0]!;
    expect(newest.actor).toEqual({ id: admin.user!.id, name: 'Camila Fuentes' });
    expect(newest.summary).toContain('cambió Monto comisión de UF 120,00 a UF 135,50');
    expect(newest.changes).toContainEqual({
      field: 'Monto comisión',
      before: 'UF 120,00',
      after: 'UF 135,50',
    });
    expect(newest.at).toBe(NOW.toISOString().replace('.000Z', '.000Z'));
    const ids = page.rows.map((row) => row.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    // The reservation's own creation is there too, by sistema, as is the commission's.
    const all = (
      await kam.get(`/api/audit/history/reservations/${f.sold.id}?pageSize=100`)
    ).json() as AuditPage;
    expect(
      all.rows.some((row) => row.table === 'reservations' && row.action === 'insert' && row.actor === null),
    ).toBe(true);
  });

  it("tells a flow's task changes and assignments, naming the task and the people", async () => {
    const f = await fixture(ctx);
    const admin = await loginAs(ctx, { firstName: 'Camila', lastName: 'Fuentes' });
    const task = f.flow.task('COF PENDIENTE GENERACIÓN');
    expect(
      (await admin.put(`/api/sale-flows/${f.flow.id}/tasks/${task}/status`, { status: 'in_progress' }))
        .statusCode,
    ).toBe(200);
    expect(
      (await admin.post(`/api/sale-flows/${f.flow.id}/tasks/${task}/assignees`, { userId: f.kam.id }))
        .statusCode,
    ).toBeLessThan(300);
    const page = (await admin.get(`/api/audit/history/flows/${f.flow.id}?pageSize=10`)).json() as AuditPage;
    const summaries = page.rows.map((row: AuditEntry) => row.summary);
    expect(summaries).toContain('asignó a Karla Mendoza a la tarea COF PENDIENTE GENERACIÓN');
    expect(summaries).toContain('marcó la tarea COF PENDIENTE GENERACIÓN como En Proceso');
    expect(page.rows[0]!.record.label).toMatch(/^Flujo de Venta Regular · Reserva N° /);
  });

  it('says a completion as a person would, and what followed from it as its effect, not as her doing', async () => {
    const f = await fixture(ctx);
    const admin = await loginAs(ctx, { firstName: 'Camila', lastName: 'Fuentes' });
    const url = (task: string) => `/api/sale-flows/${f.flow.id}/tasks/${f.flow.task(task)}`;
    const newest = async (count: number) =>
      ((await admin.get(`/api/audit/history/flows/${f.flow.id}?pageSize=${count}`)).json() as AuditPage).rows
        .map((row) => `${row.actor?.name ?? 'sistema'} ${row.summary}`)
        .reverse();
    const assign = async (task: string, userId: string) =>
      expect((await admin.post(`${url(task)}/assignees`, { userId })).statusCode).toBeLessThan(300);
    const setStatus = async (task: string, status: string) =>
      expect((await admin.put(`${url(task)}/status`, { status })).statusCode).toBe(200);

    // She takes a task and completes it: the assignment leaves with the completion.
    await assign('COF PENDIENTE GENERACIÓN', admin.user!.id);
    await setStatus('COF PENDIENTE GENERACIÓN', 'completed');
    expect(await newest(3)).toEqual([
      'Camila Fuentes se asignó la tarea COF PENDIENTE GENERACIÓN',
      'Camila Fuentes marcó la tarea COF PENDIENTE GENERACIÓN como Completada',
      'Camila Fuentes dejó de ser responsable de la tarea COF PENDIENTE GENERACIÓN al completarla',
    ]);

    // Someone else's task, the last of its stage: the next stage begins, the flow moves on.
    await assign('COF PENDIENTE FIRMA', f.kam.id);
    await setStatus('COF PENDIENTE FIRMA', 'completed');
    await setStatus('SOLICITUD VB COF PENDIENTE', 'completed');
    const last = await newest(12);
    expect(last).toContain(
      'Camila Fuentes quitó a Karla Mendoza de la tarea COF PENDIENTE FIRMA al completarla',
    );
    expect(last).toContain('Camila Fuentes marcó la tarea SOLICITUD VB COF PENDIENTE como Completada');
    expect(last).toContain(
      'Camila Fuentes pasó el flujo a la etapa Promesa al completar la tarea SOLICITUD VB COF PENDIENTE',
    );
    expect(last).toContain(
      'Camila Fuentes dio inicio a la tarea PENDIENTE GENERACIÓN PROMESA al completar la tarea SOLICITUD VB COF PENDIENTE',
    );
    expect(last.join('\n')).not.toMatch(/\(vacío\)|Completada por/);

    // Reopened by hand: said as such, its completion fields cleared without a word.
    await setStatus('COF PENDIENTE FIRMA', 'pending');
    expect(await newest(1)).toEqual(['Camila Fuentes marcó la tarea COF PENDIENTE FIRMA como Pendiente']);
  });

  it("reads only a record of the kind asked: a user's id as a client's finds nothing (sign-ins say where from)", async () => {
    const admin = await loginAs(ctx);
    const kam = await loginAs(ctx, { userType: 'KAM' });
    const asClient = await kam.get(`/api/audit/history/clients/${admin.user!.id}`);
    expect(asClient.statusCode).toBe(200);
    expect((asClient.json() as AuditPage).rows).toEqual([]);
    const [signIns] = await queryRows<{ n: number }>(
      ctx.db,
      sql`select count(*) as n from audit_log where root_id = ${admin.user!.id} and action = 'sign_in'`,
    );
    expect(signIns!.n).toBe(1);
  });

  it('answers 400 to an unknown kind of record and 401 without a session', async () => {
    const admin = await loginAs(ctx);
    expect((await admin.get(`/api/audit/history/facturas/${crypto.randomUUID()}`)).statusCode).toBe(400);
    const anonymous = await ctx.app.inject({
      method: 'GET',
      url: `/api/audit/history/clients/${crypto.randomUUID()}`,
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('Auditoría', () => {
  const ctx = useTestApp({ now: () => NOW });

  async function twoUsersChanges() {
    const f = await fixture(ctx);
    const camila = await loginAs(ctx, { firstName: 'Camila', lastName: 'Fuentes' });
    const pedro = await loginAs(ctx, { firstName: 'Pedro', lastName: 'Soto' });
    const client = (await camila.get(`/api/clients/${f.client.id}`)).json().client;
    const body = {
      rut: client.rut,
      firstName: client.firstName,
      lastName: client.lastName,
      birthDate: client.birthDate,
      email: null,
    };
    expect(
      (await camila.put(`/api/clients/${f.client.id}`, { ...body, phone: '111', version: client.version }))
        .statusCode,
    ).toBe(200);
    expect(
      (
        await pedro.put(`/api/clients/${f.client.id}`, {
          ...body,
          phone: 'Ñandú 222',
          version: client.version + 1,
        })
      ).statusCode,
    ).toBe(200);
    return { f, camila, pedro };
  }

  it('is for administrators: anyone else gets 403, list, users and export alike', async () => {
    await twoUsersChanges();
    const kam = await loginAs(ctx, { userType: 'KAM' });
    for (const url of ['/api/audit', '/api/audit/users', '/api/audit/export?format=csv']) {
      const response = await kam.get(url);
      expect(response.statusCode, url).toBe(403);
      expect(errorOf(response).message).toBe('No tiene permisos para realizar esta acción.');
    }
  });

  it('filters by user, kind of record, date range and text, newest first', async () => {
    const { camila, pedro } = await twoUsersChanges();
    const byPedro = (await camila.get(`/api/audit?user=${pedro.user!.id}`)).json() as AuditPage;
    expect(byPedro.rows.map((row) => row.summary)).toContain(
      'cambió Teléfono de 111 a Ñandú 222 en el cliente',
    );
    expect(byPedro.rows.every((row) => row.actor?.id === pedro.user!.id)).toBe(true);

    const clientsOnly = (await camila.get('/api/audit?kind=clients&pageSize=100')).json() as AuditPage;
    expect(clientsOnly.rows.length).toBeGreaterThan(0);
    expect(clientsOnly.rows.every((row) => row.record.kind === 'clients')).toBe(true);

    const bySystem = (await camila.get('/api/audit?user=sistema&kind=clients')).json() as AuditPage;
    expect(bySystem.rows.every((row) => row.actor === null)).toBe(true);

    // Values only, never the column names: 'phone' is no value of these rows.
    const columnName = (await camila.get('/api/audit?search=phone&kind=clients')).json() as AuditPage;
    expect(columnName.total).toBe(0);
    const text = (await camila.get(`/api/audit?search=${encodeURIComponent('nandu')}`)).json() as AuditPage;
    expect(text.rows).toHaveLength(1);
    expect(text.rows[0]!.actor?.name).toBe('Pedro Soto');

    const today = (
      await camila.get('/api/audit?from=2027-03-12&to=2027-03-12&kind=clients')
    ).json() as AuditPage;
    // The two edits, made at the app's 10:42 of 12 March in Santiago (the set-up ran on today's clock).
    expect(today.rows.map((row) => row.actor?.name)).toEqual(['Pedro Soto', 'Camila Fuentes']);
    const before = (
      await camila.get('/api/audit?from=2027-03-01&to=2027-03-11&kind=clients')
    ).json() as AuditPage;
    expect(before.total).toBe(0);
    const backwards = await camila.get('/api/audit?from=2027-03-12&to=2027-03-01');
    expect(backwards.statusCode).toBe(400);
  });

  it('searches the values of the newest changes the other filters leave, at most a window of them', async () => {
    const { camila, pedro } = await twoUsersChanges();
    const nandu = async (filters: string) =>
      ((await camila.get(`/api/audit?search=nandu${filters}`)).json() as AuditPage).total;
    expect(await nandu('')).toBe(1);
    // A window's worth of newer changes by 'sistema' (the log accepts inserts; a word in no value).
    await asSystem(ctx.db, (tx) =>
      tx.execute(sql`insert into audit_log (occurred_at, action, table_name, record_id, root_table, root_id, after)
        select now(), 'update', 'clients', g::text, 'clients', gen_random_uuid(), '{"phone": "333"}'::jsonb
          from generate_series(1, ${AUDIT_TEXT_SEARCH_WINDOW}) g`),
    );
    expect(await nandu('')).toBe(0);
    // Pedro's own changes are few: his newest window still holds the edit.
    expect(await nandu(`&user=${pedro.user!.id}`)).toBe(1);
  });

  it('finds an amount, a RUT and a date typed the Chilean way', async () => {
    const f = await fixture(ctx);
    await createCommission(ctx.db, f.sold, { commissionAmount: '1234.50' });
    const admin = await loginAs(ctx);
    const found = async (search: string) =>
      (
        (
          await admin.get(`/api/audit?kind=reservations&search=${encodeURIComponent(search)}`)
        ).json() as AuditPage
      ).rows;
    expect((await found('1.234,50')).map((row) => row.table)).toEqual(['broker_commissions']);
    expect((await found('1234,5')).map((row) => row.table)).toEqual(['broker_commissions']);
    const client = (await admin.get(`/api/clients/${f.client.id}`)).json().client;
    const byRut = (
      (
        await admin.get(
          `/api/audit?kind=clients&search=${encodeURIComponent(client.rut.replace(/^(\d+)(\d{3})(\d{3})-/, '$1.$2.$3-'))}`,
        )
      ).json() as AuditPage
    ).rows;
    expect(byRut.map((row) => row.record.id)).toContain(f.client.id);
    expect(
      (
        await found(
          `${f.sold.reservationDate.slice(8, 10)}/${f.sold.reservationDate.slice(5, 7)}/${f.sold.reservationDate.slice(0, 4)}`,
        )
      ).length,
    ).toBeGreaterThan(0);
  });

  it('exports the filtered log as CSV and XLSX, read back by other readers', async () => {
    const { camila, pedro } = await twoUsersChanges();
    const csv = await camila.get(`/api/audit/export?format=csv&user=${pedro.user!.id}`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-disposition']).toBe(
      `attachment; filename="auditoria_2027-03-12.csv"; filename*=UTF-8''auditoria_2027-03-12.csv`,
    );
    const parsed = Papa.parse<string[]>(csv.body.replace(/^\uFEFF/, ''), { delimiter: ';' });
    const [header, ...rows] = parsed.data.filter((row) => row.length > 1);
    expect(header).toEqual([
      'Fecha',
      'Hora',
      'Usuario',
      'Tipo de registro',
      'Registro',
      'Acción',
      'Cambios',
      'Solicitud',
    ]);
    const change = rows.find((row) => row[5]?.startsWith('cambió Teléfono'));
    expect(change?.slice(0, 3)).toEqual(['12/03/2027', '10:42', 'Pedro Soto']);
    expect(change?.[6]).toBe('Teléfono: 111 → Ñandú 222');

    const xlsx = await camila.get(`/api/audit/export?format=xlsx&user=${pedro.user!.id}`);
    expect(xlsx.statusCode).toBe(200);
    const sheet = await readSheet(xlsx.rawPayload);
    expect(sheet[0]?.[0]).toBe('Fecha');
    expect(sheet.slice(1).some((row) => row[6] === 'Teléfono: 111 → Ñandú 222')).toBe(true);
    expect(sheet[1]?.[0]).toBeInstanceOf(Date);
  });

  it('lists every staff account for the user filter, the deactivated ones too', async () => {
    const { camila } = await twoUsersChanges();
    const users = (await camila.get('/api/audit/users')).json().users as { name: string }[];
    expect(users.map((user) => user.name)).toEqual(
      expect.arrayContaining(['Camila Fuentes', 'Pedro Soto', 'Karla Mendoza']),
    );
  });
});
