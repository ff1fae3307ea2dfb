import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPglite,
  type DatabaseHandle,
  migratePglite,
  pgliteHandle,
  queryRows,
} from '../src/server/db/client';
import { readFlow } from '../src/server/features/workflows/workflows.service';
import { commissionFigures, reservationFigures } from '../src/shared/domain/pricing';
import { normalizeRut } from '../src/shared/domain/rut';
import { flowViolations } from '../src/shared/domain/workflow/invariants';
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

  it('gives every broker a verified account held by the broker, entered by the payments team and verified by another person', async () => {
    const brokers = await rows<{
      rut: string;
      holderRut: string;
      holder: string;
      businessName: string;
      number: string;
      changedBy: string;
      verifiedBy: string;
      changerType: string;
    }>(sql`select b.rut, b.bank_holder_rut as "holderRut", b.bank_holder_name as holder,
                  b.business_name as "businessName", b.bank_account_number as number,
                  b.bank_changed_by::text as "changedBy", b.bank_verified_by::text as "verifiedBy",
                  p.user_type as "changerType"
             from brokers b join profiles p on p.id = b.bank_changed_by
            where b.bank_verified_at is not null`);
    expect(brokers).toHaveLength(40);
    for (const broker of brokers) {
      expect(broker.holderRut).toBe(broker.rut);
      expect(broker.holder).toBe(broker.businessName);
      expect(broker.number).toMatch(/^[0-9]{4,20}$/);
      expect(broker.changerType).toBe('Gestor de Pagos');
      expect(broker.verifiedBy).not.toBe(broker.changedBy);
    }
  });

  it('gives every agency and promotion payee an account verified by someone other than its author (decision 0063)', async () => {
    for (const table of ['real_estate_agencies', 'promotions']) {
      const [counts] = await rows<{ total: number; verified: number; byAuthor: number }>(
        sql`select count(*)::int as total,
                   count(*) filter (where bank_verified_at is not null)::int as verified,
                   count(*) filter (where bank_verified_by = bank_changed_by)::int as "byAuthor"
              from ${sql.raw(table)}`,
      );
      expect(counts!.total, table).toBeGreaterThan(0);
      expect(counts!.verified, table).toBe(counts!.total);
      expect(counts!.byAuthor, table).toBe(0);
    }
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

  it('gives every reservation exactly one sale flow, and only commissions payment flows', async () => {
    const [check] = await rows<Record<string, number>>(sql`select
      (select count(*) from reservations)::int as reservations,
      (select count(*) from flows where kind = 'sale')::int as sale_flows,
      (select count(*) from reservations r where (select count(*) from flows f
         where f.reservation_id = r.id and f.kind = 'sale') <> 1)::int as without_one,
      (select count(*) from flows f where f.kind = 'payment' and not exists (select 1 from broker_commissions c
         where c.id = f.broker_commission_id and c.reservation_id = f.reservation_id))::int as payment_orphans`);
    expect(check!.sale_flows).toBe(check!.reservations);
    expect(check!.without_one).toBe(0);
    expect(check!.payment_orphans).toBe(0);
  });

  it('leaves every flow as the workflow engine would (every invariant, strictly)', async () => {
    const flows = await rows<{ id: string }>(sql`select id from flows order by id`);
    const violations: string[] = [];
    for (const { id } of flows) {
      const { definition, state } = await readFlow(handle.db, id);
      violations.push(...flowViolations(definition, state, { strict: true }));
    }
    expect(violations).toEqual([]);
    const states = await rows<{ kind: string; second: boolean; status: string }>(
      sql`select distinct kind, is_second_payment as second, status from flows`,
    );
    const of = (kind: string, second: boolean) =>
      new Set(states.filter((s) => s.kind === kind && s.second === second).map((s) => s.status));
    expect([...of('sale', false)].sort()).toEqual(['cancelled', 'completed', 'in_progress']);
    expect([...of('payment', false)].sort()).toEqual(['cancelled', 'completed', 'in_progress', 'pending']);
    expect(of('payment', true).size).toBeGreaterThan(0);
  }, 120_000);

  it('cancels exactly the flows of rescinded reservations that had not completed', async () => {
    const [check] = await rows<Record<string, number>>(sql`select
      (select count(*) from flows f join reservations r on r.id = f.reservation_id
         where (f.status = 'cancelled') <> (r.is_rescinded and f.status <> 'completed'))::int as cancelled,
      (select count(*) from reservations r where r.is_rescinded
         and (r.rescinded_at is null or r.rescinded_reason is null or r.rescinded_by is null))::int as rescinded_fields,
      (select count(*) from flow_tasks t where t.completed_at > ${NOW.toISOString()}::timestamptz
         or t.started_at > ${NOW.toISOString()}::timestamptz)::int as future`);
    expect(check).toEqual({ cancelled: 0, rescinded_fields: 0, future: 0 });
  });

  it('assigns COF tasks still open to the seller, and nobody to completed tasks', async () => {
    const [check] = await rows<Record<string, number>>(sql`select
      (select count(*) from flow_task_assignees a join flow_tasks t on t.id = a.flow_task_id
         where t.status = 'completed')::int as on_completed,
      (select count(*) from flow_tasks t join workflow_tasks d on d.id = t.task_id and d.assign_to_seller
         join flows f on f.id = t.flow_id join reservations r on r.id = f.reservation_id
         where t.status <> 'completed' and not exists (select 1 from flow_task_assignees a
           where a.flow_task_id = t.id and a.user_id = r.seller_id))::int as cof_unassigned,
      (select count(*) from flow_task_assignees)::int as total`);
    expect(check!.on_completed).toBe(0);
    expect(check!.cof_unassigned).toBe(0);
    expect(check!.total).toBeGreaterThan(0);
  });

  it('dates each payment on the Santiago day its flow completed, and only then', async () => {
    const [problems] = await rows<Record<string, number>>(sql`select
      (select count(*) from flows f join broker_commissions c on c.id = f.broker_commission_id
         where f.status = 'completed' and not f.is_second_payment
           and c.payment_1_date is distinct from (f.completed_at at time zone 'America/Santiago')::date)::int as payment_1_date,
      (select count(*) from flows f join broker_commissions c on c.id = f.broker_commission_id
         where f.status = 'completed' and f.is_second_payment
           and c.payment_2_date is distinct from (f.completed_at at time zone 'America/Santiago')::date)::int as payment_2_date,
      (select count(*) from broker_commissions c where c.payment_1_date is not null and not exists (select 1 from flows f
         where f.broker_commission_id = c.id and not f.is_second_payment and f.status = 'completed'))::int as paid_without_flow,
      (select count(*) from flows s join broker_commissions c on c.id = s.broker_commission_id
         where s.is_second_payment and (c.number_of_payments <> 2 or not exists (select 1 from flows f
           where f.broker_commission_id = c.id and not f.is_second_payment and f.status = 'completed')))::int as second_not_allowed,
      (select count(*) from broker_commissions c join reservations r on r.id = c.reservation_id
         where c.at_risk and (r.is_rescinded or c.at_risk_reason is null))::int as at_risk`);
    expect(problems).toEqual({
      payment_1_date: 0,
      payment_2_date: 0,
      paid_without_flow: 0,
      second_not_allowed: 0,
      at_risk: 0,
    });
    const [risk] = await rows<{ n: number }>(
      sql`select count(*)::int as n from broker_commissions where at_risk`,
    );
    expect(risk!.n).toBeGreaterThan(0);
  });

  it('never books a unit to two live reservations', async () => {
    const [check] = await rows<Record<string, number>>(sql`select
      (select count(*) from (select project_id, apartment_number from reservations where not is_rescinded
         group by 1, 2 having count(*) > 1) x)::int as apartments,
      (select count(*) from (select project_id, parking_number from reservations where not is_rescinded and parking_number is not null
         group by 1, 2 having count(*) > 1) x)::int as parking,
      (select count(*) from (select project_id, storage_number from reservations where not is_rescinded and storage_number is not null
         group by 1, 2 having count(*) > 1) x)::int as storage`);
    expect(check).toEqual({ apartments: 0, parking: 0, storage: 0 });
  });

  it('gives every project an inventory, priced, whose statuses follow its live reservations (issue 31)', async () => {
    const [check] = await rows<Record<string, number>>(sql`select
      (select count(*) from projects p where not exists (select 1 from units u where u.project_id = p.id))::int as projects_without_units,
      (select count(*) from units u where not exists (select 1 from price_list_items i where i.unit_id = u.id))::int as unpriced,
      (select count(*) from reservations r where not r.is_rescinded and not exists (select 1 from reservation_units ru
         join units u on u.id = ru.unit_id where ru.reservation_id = r.id and ru.is_live and u.kind = 'apartment'
         and u.number = r.apartment_number))::int as live_without_apartment,
      (select count(*) from reservation_units where is_live)::int as held,
      (select count(*) from unit_statuses where status in ('Reservada', 'Promesada', 'Escriturada'))::int as taken,
      (select count(*) from unit_statuses where status = 'Escriturada')::int as deeded,
      (select count(*) from unit_statuses where status = 'Disponible')::int as available`);
    expect(check).toMatchObject({ projects_without_units: 0, unpriced: 0, live_without_apartment: 0 });
    expect(check!.taken).toBe(check!.held);
    expect(check!.deeded).toBeGreaterThan(0);
    expect(check!.available).toBeGreaterThan(0);
  });

  it('has users of every type, admins with the admin role, a default seller and default assignees', async () => {
    const types = await rows<{ user_type: string }>(sql`select distinct user_type from profiles`);
    expect(types.map((t) => t.user_type).sort()).toEqual([...USER_TYPES].sort());
    const [check] = await rows<Record<string, number>>(sql`select
      (select count(*) from profiles where user_type = 'Administrador' and not exists (select 1 from user_roles ur
         join roles r on r.id = ur.role_id where ur.user_id = profiles.id and r.name = 'admin'))::int as admins_without_role,
      (select count(*) from profiles where is_seller)::int as sellers,
      (select count(*) from default_seller d join profiles p on p.id = d.user_id where p.is_seller)::int as default_seller,
      (select count(*) from workflow_task_default_assignees d join workflow_tasks t on t.id = d.task_id
         join workflow_stages s on s.id = t.stage_id join workflows w on w.id = s.workflow_id where w.kind = 'sale')::int as sale_defaults,
      (select count(*) from workflow_task_default_assignees d join workflow_tasks t on t.id = d.task_id
         join workflow_stages s on s.id = t.stage_id join workflows w on w.id = s.workflow_id where w.kind = 'payment')::int as payment_defaults`);
    expect(check!.admins_without_role).toBe(0);
    expect(check!.sellers).toBeGreaterThanOrEqual(5);
    expect(check!.default_seller).toBe(1);
    expect(check!.sale_defaults).toBeGreaterThan(0);
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
            c.rut, f.status, (select string_agg(t.status, ',' order by st.sort_order, d.sort_order) from flow_tasks t
              join workflow_tasks d on d.id = t.task_id join workflow_stages st on st.id = d.stage_id
              where t.flow_id = f.id)),
            ';' order by r.reservation_number)) as hash
          from reservations r join clients c on c.id = r.client_id join flows f on f.reservation_id = r.id and f.kind = 'sale'`,
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
          (select count(*) from flow_tasks t where not exists (select 1 from flows f where f.id = t.flow_id)
             or not exists (select 1 from workflow_tasks d where d.id = t.task_id))::int as tasks,
          (select count(*) from flows f where not exists (select 1 from reservations r where r.id = f.reservation_id)
             or (f.broker_commission_id is not null
                 and not exists (select 1 from broker_commissions c where c.id = f.broker_commission_id)))::int as flows,
          (select count(*) from reservations r where not exists (select 1 from clients c where c.id = r.client_id)
             or not exists (select 1 from projects p where p.id = r.project_id))::int as reservations,
          (select count(*) from flow_task_assignees a where not exists (select 1 from flow_tasks t where t.id = a.flow_task_id))::int as assignees,
          (select count(*) from flow_task_comments c where not exists (select 1 from flow_tasks t where t.id = c.flow_task_id))::int as comments`,
      );
      expect(orphans).toEqual({ tasks: 0, flows: 0, reservations: 0, assignees: 0, comments: 0 });
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
