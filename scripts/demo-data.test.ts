import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPglite,
  type DatabaseHandle,
  migratePglite,
  pgliteHandle,
  queryRows,
} from '../src/server/db/client';
import { commissionFigures, reservationFigures } from '../src/shared/domain/pricing';
import { normalizeRut } from '../src/shared/domain/rut';
import { USER_TYPES } from '../src/shared/permissions';
import {
  COMMON_APARTMENT,
  COMMON_SURNAME,
  type DatasetSummary,
  generateDataset,
  pendingTaskCounts,
  Random,
  SCALES,
} from './demo-data';

const NOW = new Date('2026-03-15T15:00:00.000Z');

// One migrated template per file; each database is loaded from its dump (faster than migrating).
let template: Promise<File | Blob> | undefined;
async function freshDatabase(): Promise<DatabaseHandle> {
  template ??= (async () => {
    const client = await createPglite();
    await migratePglite(client);
    const dump = await client.dumpDataDir('none');
    await client.close();
    return dump;
  })();
  const client = await createPglite({ loadDataDir: await template });
  return pgliteHandle(client);
}

describe('the demo dataset (demo scale)', () => {
  let handle: DatabaseHandle;
  let summary: DatasetSummary;
  const rows = <T>(query: ReturnType<typeof sql>) => queryRows<T>(handle.db, query);

  beforeAll(async () => {
    handle = await freshDatabase();
    summary = await generateDataset(handle.db, { scale: 'demo', seed: 7, now: NOW });
  }, 180_000);
  afterAll(async () => {
    await handle?.close();
  });

  it('has the sizes of the demo scale', async () => {
    const [counts] = await rows<Record<string, number>>(sql`select
      (select count(*) from clients)::int as clients, (select count(*) from reservations)::int as reservations,
      (select count(*) from brokers)::int as brokers, (select count(*) from projects)::int as projects,
      (select count(*) from real_estate_agencies)::int as agencies`);
    expect(counts).toEqual({ clients: 600, reservations: 800, brokers: 40, projects: 8, agencies: 3 });
    expect(summary.counts.reservations).toBe(800);
  });

  it('stores the figures the shared pricing math computes', async () => {
    const reservations = await rows<
      Record<string, string>
    >(sql`select r.*, c.commission_amount, c.commission_includes_tax,
        c.pays_secondary, c.number_of_payments, c.first_payment_percentage, c.net_commission, c.difference
      from reservations r left join broker_commissions c on c.reservation_id = r.id`);
    let withCommission = 0;
    for (const r of reservations) {
      const figures = reservationFigures({
        apartmentPrice: r.apartment_price,
        parkingPrice: r.parking_price,
        storagePrice: r.storage_price,
        columnDiscount: r.column_discount,
        additionalDiscount: r.additional_discount,
        otherDiscount: r.other_discount,
        reservationPayment: r.reservation_payment,
        promisePayment: r.promise_payment,
        downPayment: r.down_payment,
        creditPayment: r.credit_payment,
        subsidyPayment: r.subsidy_payment,
      });
      expect({
        totalPrice: r.total_price,
        minimumPrice: r.minimum_price,
        totalPayment: r.total_payment,
        recoveryPayment: r.recovery_payment,
      }).toEqual(figures);
      if (r.commission_amount === null) continue;
      withCommission += 1;
      const payments = Number(r.number_of_payments) as 1 | 2;
      const first = Number(r.first_payment_percentage) as 25 | 50 | 100;
      expect(payments === 1 ? [100] : [25, 50]).toContain(first);
      const cf = commissionFigures(
        {
          commissionAmount: r.commission_amount,
          commissionIncludesTax: r.commission_includes_tax as unknown as boolean,
          paysSecondary: r.pays_secondary as unknown as boolean,
          numberOfPayments: payments,
          firstPaymentPercentage: first,
        },
        {
          minimumPrice: r.minimum_price!,
          recoveryPayment: r.recovery_payment!,
          parkingPrice: r.parking_price,
          storagePrice: r.storage_price,
        },
      );
      expect(r.net_commission).toBe(cf.netCommission);
      expect(r.difference).toBe(cf.difference);
      expect(Number(cf.commissionPercentage)).toBeGreaterThanOrEqual(1.49);
      expect(Number(cf.commissionPercentage)).toBeLessThanOrEqual(3.01);
    }
    // About 60 % of reservations are sold through a broker.
    expect(withCommission / reservations.length).toBeGreaterThan(0.5);
    expect(withCommission / reservations.length).toBeLessThan(0.7);
  });

  it('gives clients valid, unique RUTs and realistic names', async () => {
    const clients = await rows<{ rut: string; first_name: string; last_name: string }>(
      sql`select rut, first_name, last_name from clients`,
    );
    for (const client of clients) expect(normalizeRut(client.rut)).toBe(client.rut);
    expect(new Set(clients.map((c) => c.rut)).size).toBe(clients.length);
    expect(clients.some((c) => /[ñÑ]/.test(c.last_name) || /[ñÑ]/.test(c.first_name))).toBe(true);
    expect(clients.some((c) => c.last_name.startsWith(COMMON_SURNAME))).toBe(true);
    const brokers = await rows<{ rut: string }>(
      sql`select rut from brokers union all select rut from real_estate_agencies`,
    );
    for (const broker of brokers) expect(normalizeRut(broker.rut)).toBe(broker.rut);
  });

  it('spreads reservations over 18 months, unique numbers, one reserved unit per apartment', async () => {
    const [span] = await rows<{
      oldest: string;
      newest: string;
      numbers: number;
      units: number;
      total: number;
    }>(
      sql`select min(reservation_date)::text as oldest, max(reservation_date)::text as newest,
        count(distinct reservation_number)::int as numbers, count(distinct (project_id, apartment_number))::int as units,
        count(*)::int as total from reservations`,
    );
    expect(span!.numbers).toBe(span!.total);
    expect(span!.units).toBe(span!.total);
    expect(span!.newest <= '2026-03-15').toBe(true);
    expect(span!.oldest >= '2024-09-13').toBe(true);
    const [overCapacity] = await rows<{ n: number }>(sql`select count(*)::int as n from projects p
      where p.total_units < (select count(*) from reservations r where r.project_id = p.id)`);
    expect(overCapacity!.n).toBe(0);
    const [apartments] = await rows<{ n: number }>(
      sql`select count(*)::int as n from reservations where apartment_number = ${COMMON_APARTMENT}`,
    );
    expect(apartments!.n).toBeGreaterThan(0);
  });

  it('gives every reservation exactly one sale flow with one row per definition task', async () => {
    const [check] = await rows<{ reservations: number; flows: number; bad: number; tasks: number }>(sql`select
      (select count(*) from reservations)::int as reservations,
      (select count(*) from reservation_flows)::int as flows,
      (select count(*) from reservations r where (select count(*) from reservation_flows f where f.reservation_id = r.id) <> 1)::int as bad,
      (select count(*) from sale_flow_tasks)::int as tasks`);
    expect(check!.tasks).toBe(25);
    expect(check!.flows).toBe(check!.reservations);
    expect(check!.bad).toBe(0);
    const [taskRows] = await rows<{
      wrong: number;
    }>(sql`select count(*)::int as wrong from reservation_flows f
      where (select count(distinct t.task_id) from reservation_flow_tasks t where t.reservation_flow_id = f.id) <> 25
         or (select count(*) from reservation_flow_tasks t where t.reservation_flow_id = f.id) <> 25`);
    expect(taskRows!.wrong).toBe(0);
  });

  it('keeps sale flows consistent with the workflow rules', async () => {
    const statuses = await rows<{ status: string; n: number }>(
      sql`select status, count(*)::int as n from reservation_flows group by status`,
    );
    const byStatus = Object.fromEntries(statuses.map((s) => [s.status, s.n]));
    expect(byStatus.in_progress).toBeGreaterThan(0);
    expect(byStatus.completed).toBeGreaterThan(0);
    expect(byStatus.cancelled).toBeGreaterThan(0);
    // Current stage = first stage with a task not completed; none when every task is completed.
    const [wrongStage] = await rows<{ n: number }>(sql`select count(*)::int as n from reservation_flows f
      where f.current_stage_id is distinct from (
        select st.id from reservation_flow_tasks t join sale_flow_tasks d on d.id = t.task_id
        join sale_flow_stages st on st.id = d.stage_id
        where t.reservation_flow_id = f.id and t.status <> 'completed' order by st.sort_order limit 1)`);
    expect(wrongStage!.n).toBe(0);
    const [problems] = await rows<Record<string, number>>(sql`select
      (select count(*) from reservation_flows f where f.status = 'completed' and (f.completed_at is null or exists (
         select 1 from reservation_flow_tasks t where t.reservation_flow_id = f.id and t.status <> 'completed')))::int as open_in_completed,
      (select count(*) from reservation_flows f where f.status = 'completed' and f.completed_at <> (
         select max(t.completed_at) from reservation_flow_tasks t where t.reservation_flow_id = f.id))::int as completion_time,
      (select count(*) from reservation_flows f where f.status <> 'completed' and f.completed_at is not null)::int as completed_at_when_open,
      (select count(*) from reservation_flow_tasks t where (t.status = 'completed') <> (t.completed_at is not null))::int as completed_at,
      (select count(*) from reservation_flow_tasks t where t.completed_at < t.started_at or t.completed_at > ${NOW.toISOString()}::timestamptz)::int as times,
      (select count(*) from reservation_flow_tasks t join sale_flow_tasks d on d.id = t.task_id join sale_flow_stages st on st.id = d.stage_id
         join reservation_flows f on f.id = t.reservation_flow_id left join sale_flow_stages cur on cur.id = f.current_stage_id
         where (cur.id is null or st.sort_order <= cur.sort_order) <> (t.started_at is not null))::int as started,
      (select count(*) from reservation_flows f join reservations r on r.id = f.reservation_id
         where (f.status = 'cancelled') <> (r.is_rescinded and f.status <> 'completed'))::int as cancelled,
      (select count(*) from reservations r where r.is_rescinded and (r.rescinded_at is null or r.rescinded_reason is null or r.rescinded_by is null))::int as rescinded_fields`);
    expect(problems).toEqual({
      open_in_completed: 0,
      completion_time: 0,
      completed_at_when_open: 0,
      completed_at: 0,
      times: 0,
      started: 0,
      cancelled: 0,
      rescinded_fields: 0,
    });
  });

  it('assigns only open sale tasks, the COF ones to the seller', async () => {
    const [check] = await rows<Record<string, number>>(sql`select
      (select count(*) from task_assignments a join reservation_flow_tasks t
         on t.reservation_flow_id = a.reservation_flow_id and t.task_id = a.task_id where t.status = 'completed')::int as on_completed,
      (select count(*) from reservation_flow_tasks t join sale_flow_tasks d on d.id = t.task_id
         join reservation_flows f on f.id = t.reservation_flow_id join reservations r on r.id = f.reservation_id
         where d.name like '%COF%' and t.status <> 'completed' and not exists (select 1 from task_assignments a
           where a.reservation_flow_id = t.reservation_flow_id and a.task_id = t.task_id and a.user_id = r.seller_id))::int as cof_unassigned,
      (select count(*) from task_assignments)::int as total`);
    expect(check!.on_completed).toBe(0);
    expect(check!.cof_unassigned).toBe(0);
    expect(check!.total).toBeGreaterThan(0);
  });

  it('keeps payment flows consistent with prerequisites, states and payment dates', async () => {
    const states = await rows<{ second: boolean; status: string; n: number }>(
      sql`select is_second_payment as second, status, count(*)::int as n from commission_flows group by 1, 2`,
    );
    const firstStates = new Set(states.filter((s) => !s.second).map((s) => s.status));
    for (const status of ['pending', 'in_progress', 'completed', 'cancelled'])
      expect(firstStates).toContain(status);
    expect(states.some((s) => s.second)).toBe(true);

    const [problems] = await rows<Record<string, number>>(sql`select
      (select count(*) from commission_flows f join commission_flow_tasks t on t.commission_flow_id = f.id
         where f.status = 'pending' and (f.started_at is not null or t.status <> 'blocked' or t.started_at is not null))::int as pending,
      (select count(*) from commission_flows f where f.status in ('in_progress', 'completed') and f.started_at is null)::int as not_started,
      (select count(*) from commission_flow_tasks t join commission_flows f on f.id = t.commission_flow_id
         where f.started_at is not null and (
           (t.status in ('pending', 'in_progress', 'completed')) <> not exists (
             select 1 from payment_flow_task_prerequisites p join commission_flow_tasks pt
               on pt.commission_flow_id = t.commission_flow_id and pt.task_id = p.prerequisite_task_id
             where p.task_id = t.task_id and pt.status <> 'completed')))::int as prerequisites,
      (select count(*) from commission_flow_tasks t where (t.status = 'completed') <> (t.completed_at is not null)
         or (t.status = 'blocked') <> (t.started_at is null))::int as task_dates,
      (select count(*) from commission_flow_tasks t join commission_flows f on f.id = t.commission_flow_id
         where t.started_at is not null and t.started_at <> coalesce((select max(pt.completed_at)
           from payment_flow_task_prerequisites p join commission_flow_tasks pt
             on pt.commission_flow_id = t.commission_flow_id and pt.task_id = p.prerequisite_task_id
           where p.task_id = t.task_id), f.started_at))::int as opened_at,
      (select count(*) from commission_flows f where f.status = 'completed' and (f.completed_at is distinct from (
         select max(t.completed_at) from commission_flow_tasks t where t.commission_flow_id = f.id) or exists (
         select 1 from commission_flow_tasks t where t.commission_flow_id = f.id and t.status <> 'completed')))::int as completed,
      (select count(*) from commission_flows f join broker_commissions c on c.id = f.broker_commission_id
         where f.status = 'completed' and not f.is_second_payment
           and c.payment_1_date is distinct from (f.completed_at at time zone 'America/Santiago')::date)::int as payment_1_date,
      (select count(*) from commission_flows f join broker_commissions c on c.id = f.broker_commission_id
         where f.status = 'completed' and f.is_second_payment
           and c.payment_2_date is distinct from (f.completed_at at time zone 'America/Santiago')::date)::int as payment_2_date,
      (select count(*) from broker_commissions c where c.payment_1_date is not null and not exists (select 1 from commission_flows f
         where f.broker_commission_id = c.id and not f.is_second_payment and f.status = 'completed'))::int as paid_without_flow,
      (select count(*) from commission_flows s join broker_commissions c on c.id = s.broker_commission_id
         where s.is_second_payment and (c.number_of_payments <> 2 or not exists (select 1 from commission_flows f
           where f.broker_commission_id = c.id and not f.is_second_payment and f.status = 'completed')))::int as second_not_allowed,
      (select count(*) from commission_flows f join broker_commissions c on c.id = f.broker_commission_id
         join reservations r on r.id = c.reservation_id
         where (f.status = 'cancelled') <> (r.is_rescinded and f.status <> 'completed'))::int as cancelled,
      (select count(*) from commission_flows f join commission_flow_tasks t on t.commission_flow_id = f.id
         where (t.assignee_id is null) <> (t.assigned_at is null))::int as assigned_at,
      (select count(*) from broker_commissions c join reservations r on r.id = c.reservation_id
         where c.at_risk and (r.is_rescinded or c.at_risk_reason is null))::int as at_risk`);
    expect(problems).toEqual({
      pending: 0,
      not_started: 0,
      prerequisites: 0,
      task_dates: 0,
      opened_at: 0,
      completed: 0,
      payment_1_date: 0,
      payment_2_date: 0,
      paid_without_flow: 0,
      second_not_allowed: 0,
      cancelled: 0,
      assigned_at: 0,
      at_risk: 0,
    });
    // Current stage of a payment flow: the lowest-order stage with a task not completed.
    const [wrongStage] = await rows<{ n: number }>(sql`select count(*)::int as n from commission_flows f
      where f.current_stage_id is distinct from (
        select st.id from commission_flow_tasks t join payment_flow_tasks d on d.id = t.task_id
        join payment_flow_stages st on st.id = d.stage_id
        where t.commission_flow_id = f.id and t.status <> 'completed' order by st.sort_order limit 1)`);
    expect(wrongStage!.n).toBe(0);
    const [risk] = await rows<{ n: number }>(
      sql`select count(*)::int as n from broker_commissions where at_risk`,
    );
    expect(risk!.n).toBeGreaterThan(0);
  });

  it('has users of every type, admins with the admin role, a default seller and default assignees', async () => {
    const types = await rows<{ user_type: string }>(sql`select distinct user_type from profiles`);
    expect(types.map((t) => t.user_type).sort()).toEqual([...USER_TYPES].sort());
    const [check] = await rows<Record<string, number>>(sql`select
      (select count(*) from profiles where user_type = 'Administrador' and not exists (select 1 from user_roles ur
         join roles r on r.id = ur.role_id where ur.user_id = profiles.id and r.name = 'admin'))::int as admins_without_role,
      (select count(*) from profiles where is_seller)::int as sellers,
      (select count(*) from default_seller d join profiles p on p.id = d.user_id where p.is_seller)::int as default_seller,
      (select count(*) from default_task_assignments)::int as default_tasks,
      (select count(*) from payment_flow_tasks where default_assignee_id is not null)::int as payment_defaults`);
    expect(check!.admins_without_role).toBe(0);
    expect(check!.sellers).toBeGreaterThanOrEqual(5);
    expect(check!.default_seller).toBe(1);
    expect(check!.default_tasks).toBeGreaterThan(0);
    expect(check!.payment_defaults).toBeGreaterThan(0);
    expect(summary.users.map((u) => u.userType)).toEqual(expect.arrayContaining([...USER_TYPES]));
  });

  it("keeps every user's pending tasks in the tens", async () => {
    const counts = await pendingTaskCounts(handle.db);
    expect(counts.length).toBeGreaterThan(5);
    expect(counts[0]!.count).toBeGreaterThanOrEqual(10);
    expect(counts[0]!.count).toBeLessThan(100);
  });
});

describe('the generator', () => {
  const fingerprint = async (handle: DatabaseHandle) =>
    queryRows<{ hash: string }>(
      handle.db,
      sql`select md5(string_agg(concat_ws('|', r.reservation_number, r.reservation_date, r.apartment_number, r.minimum_price,
            c.rut, f.status, (select string_agg(t.status, ',' order by st.sort_order, d.sort_order) from reservation_flow_tasks t
              join sale_flow_tasks d on d.id = t.task_id join sale_flow_stages st on st.id = d.stage_id
              where t.reservation_flow_id = f.id)),
            ';' order by r.reservation_number)) as hash
          from reservations r join clients c on c.id = r.client_id join reservation_flows f on f.reservation_id = r.id`,
    );

  it('is deterministic for a seed and a date, and differs with the seed', async () => {
    const hashes: string[] = [];
    for (const seed of [1, 1, 2]) {
      const handle = await freshDatabase();
      try {
        await generateDataset(handle.db, { scale: 'e2e', seed, now: NOW });
        hashes.push((await fingerprint(handle))[0]!.hash);
      } finally {
        await handle.close();
      }
    }
    expect(hashes[0]).toBe(hashes[1]);
    expect(hashes[2]).not.toBe(hashes[0]);
  }, 120_000);

  it('leaves no dangling reference when foreign-key triggers are skipped (as at bench scale)', async () => {
    const handle = await freshDatabase();
    try {
      await generateDataset(handle.db, { scale: { ...SCALES.e2e, skipTriggers: true }, seed: 3, now: NOW });
      const [orphans] = await queryRows<Record<string, number>>(
        handle.db,
        sql`select
          (select count(*) from reservation_flow_tasks t where not exists (select 1 from reservation_flows f where f.id = t.reservation_flow_id)
             or not exists (select 1 from sale_flow_tasks d where d.id = t.task_id))::int as sale_tasks,
          (select count(*) from commission_flow_tasks t where not exists (select 1 from commission_flows f where f.id = t.commission_flow_id)
             or not exists (select 1 from payment_flow_tasks d where d.id = t.task_id))::int as payment_tasks,
          (select count(*) from reservations r where not exists (select 1 from clients c where c.id = r.client_id)
             or not exists (select 1 from projects p where p.id = r.project_id))::int as reservations,
          (select count(*) from commission_flows f where not exists (select 1 from broker_commissions c where c.id = f.broker_commission_id))::int as flows,
          (select count(*) from task_assignments a where not exists (select 1 from reservation_flow_tasks t
             where t.reservation_flow_id = a.reservation_flow_id and t.task_id = a.task_id))::int as assignments`,
      );
      expect(orphans).toEqual({ sale_tasks: 0, payment_tasks: 0, reservations: 0, flows: 0, assignments: 0 });
    } finally {
      await handle.close();
    }
  }, 120_000);

  it('draws uniform numbers and version-4 UUIDs from its seeded PRNG', () => {
    const rng = new Random(42);
    const values = Array.from({ length: 10_000 }, () => rng.next());
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    expect(mean).toBeGreaterThan(0.48);
    expect(mean).toBeLessThan(0.52);
    expect(rng.uuid()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
