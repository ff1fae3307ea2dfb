// The buyer's account (issue 60, decision 0073) for `npm run bench`: a plan for every reservation with
// a reserva, promesa or pie (the generator makes none): reserva and promesa lines and the pie in 12
// monthly cuotas after the promise — about 1.4 million lines at bench scale — the lines due more than
// 90 days before today paid. Loaded once, set-based, with the triggers off (no audit rows, as the
// generator loads). Measured: one reservation's account, and 'Cuotas vencidas' first page, whole and
// filtered by a project.
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { asSystem } from '../src/server/db/actor';
import { type Database, queryRows } from '../src/server/db/client';

const INSTALLMENTS = 12;

export interface BuyerAccountTargets {
  reservationId: string;
  projectId: string;
}

/** Plans for the reservations that have none (a reused dataset keeps its plans). */
export async function prepareBuyerPlans(db: Database, today: string): Promise<number> {
  const created = await asSystem(db, async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    const [inserted] = await queryRows(
      tx,
      sql`with made as (
            insert into buyer_plans (reservation_id, reservation_amount, promise_amount, down_payment_amount,
              installment_count, credit_amount, subsidy_amount, promise_date, expected_deed_date)
            select r.id, r.reservation_payment, r.promise_payment, r.down_payment, ${INSTALLMENTS},
                   r.credit_payment, r.subsidy_payment, coalesce(r.promise_date, r.reservation_date + 30), r.deed_date
              from reservations r
             where r.reservation_payment + r.promise_payment + r.down_payment > 0
               and not exists (select 1 from buyer_plans p where p.reservation_id = r.id)
            returning id, reservation_id)
          select count(*)::int as count from made`,
      z.object({ count: z.number() }),
    );
    if (!inserted?.count) return 0;
    // The lines of the new plans: the pie's cuotas each a twelfth to four decimals, the last the rest.
    await tx.execute(sql`insert into buyer_plan_lines (plan_id, reservation_id, sort_order, kind, number, due_date, amount)
      select p.id, p.reservation_id, line.sort_order, line.kind, line.number, line.due_date, line.amount
        from buyer_plans p
        join reservations r on r.id = p.reservation_id
        cross join lateral (
          select 1 as sort_order, 'reservation' as kind, 0 as number, r.reservation_date as due_date,
                 p.reservation_amount as amount where p.reservation_amount > 0
          union all
          select 2, 'promise', 0, p.promise_date, p.promise_amount where p.promise_amount > 0
          union all
          select 2 + n, 'downPayment', n, (p.promise_date + make_interval(months => n))::date,
                 case when n < ${INSTALLMENTS} then round(p.down_payment_amount / ${INSTALLMENTS}, 4)
                      else p.down_payment_amount - round(p.down_payment_amount / ${INSTALLMENTS}, 4) * ${INSTALLMENTS - 1} end
            from generate_series(1, ${INSTALLMENTS}) n where p.down_payment_amount > 0
        ) line
       where not exists (select 1 from buyer_plan_lines l where l.plan_id = p.id)
         and line.amount > 0`);
    await tx.execute(sql`update buyer_plan_lines set paid_amount = amount, is_open = false
      where is_open and due_date < ${today}::date - 90`);
    await tx.execute(sql`update buyer_plans p set paid_amount = s.paid
      from (select plan_id, sum(paid_amount) as paid from buyer_plan_lines group by plan_id) s
      where s.plan_id = p.id and p.paid_amount <> s.paid`);
    return inserted.count;
  });
  await db.execute(sql`analyze buyer_plans`);
  await db.execute(sql`analyze buyer_plan_lines`);
  return created;
}

/** A reservation with an open plan, and its project. */
export async function buyerAccountTargets(db: Database): Promise<BuyerAccountTargets | null> {
  const [row] = await queryRows(
    db,
    sql`select p.reservation_id::text as "reservationId", r.project_id::text as "projectId"
          from buyer_plans p join reservations r on r.id = p.reservation_id
         order by p.reservation_id limit 1`,
    z.object({ reservationId: z.string(), projectId: z.string() }),
  );
  return row ?? null;
}

/** The endpoints to measure (in `bench/run.ts`'s shape), with the issue's targets. */
export function buyerAccountEndpoints(targets: BuyerAccountTargets | null) {
  if (!targets) return [];
  return [
    {
      key: 'buyerAccount',
      label: "buyer account: a reservation's plan and payments",
      method: 'GET' as const,
      path: `/api/reservations/${targets.reservationId}/account`,
      target: 25,
    },
    {
      key: 'buyerOverdue',
      label: "buyer account: 'Cuotas vencidas' first page",
      method: 'GET' as const,
      path: '/api/buyer-accounts/overdue?page=1&pageSize=25',
      target: 25,
    },
    {
      key: 'buyerOverdueProject',
      label: "buyer account: 'Cuotas vencidas' of a project",
      method: 'GET' as const,
      path: `/api/buyer-accounts/overdue?page=1&pageSize=25&projectId=${targets.projectId}`,
      target: 25,
    },
  ];
}
