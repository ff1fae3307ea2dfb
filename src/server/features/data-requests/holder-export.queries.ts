import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { HolderRestriction, HolderValues } from '../../../shared/domain/privacy';
import { foldForSearch } from '../../../shared/domain/search';
import type { DataRequestKind, DataRequestStatus } from '../../../shared/schemas/data-requests';
import { type Executor, isoInstant, queryRows } from '../../db/client';
import * as audit from '../audit/audit.service';

/** A row of an export section: its keys are the Spanish labels the export shows. */
const exportRow = z.record(z.string(), z.unknown());

/**
 * The reads of the holder's data export (decision 0027). Each section is one statement: a holder
 * with 50 reservations is exported in well under a second (npm run bench).
 */

export interface HolderRow extends HolderValues {
  id: string;
  createdAt: string;
  deletedAt: string | null;
  suppressedAt: string | null;
  restriction: HolderRestriction | null;
}

export async function findHolder(db: Executor, clientId: string): Promise<HolderRow | null> {
  const [row] = await queryRows<HolderRow>(
    db,
    sql`select id, rut, first_name as "firstName", last_name as "lastName", birth_date as "birthDate", phone, email,
               ${isoInstant(sql`created_at`)} as "createdAt", ${isoInstant(sql`deleted_at`)} as "deletedAt",
               ${isoInstant(sql`suppressed_at`)} as "suppressedAt", restriction
          from clients where id = ${clientId}`,
  );
  return row ?? null;
}

/**
 * The holder's reservations with prices, units, commission, promotions and flows, as JSON in Spanish. A
 * promotion's payee is shown only when the payee is the holder (by RUT): another person's bank data
 * are not the holder's to receive.
 */
export async function reservationsOfHolder(
  db: Executor,
  clientId: string,
  holderRut: string,
): Promise<Record<string, unknown>[]> {
  const rows = await queryRows<{ reservation: Record<string, unknown> }>(
    db,
    sql`select json_build_object(
          'numero', r.reservation_number,
          'proyecto', p.name,
          'etapa', p.stage,
          'departamento', r.apartment_number,
          'estacionamiento', r.parking_number,
          'bodega', r.storage_number,
          'fechaReserva', r.reservation_date,
          'fechaPromesa', r.promise_date,
          'fechaEscritura', r.deed_date,
          'precioDepartamentoUF', r.apartment_price::text,
          'precioEstacionamientoUF', r.parking_price::text,
          'precioBodegaUF', r.storage_price::text,
          'precioListaUF', r.total_price::text,
          'descuentoColumna', r.column_discount::text,
          'descuentoAdicional', r.additional_discount::text,
          'otroDescuento', r.other_discount::text,
          'precioMinimoUF', r.minimum_price::text,
          'reservaUF', r.reservation_payment::text,
          'promesaUF', r.promise_payment::text,
          'pieUF', r.down_payment::text,
          'creditoHipotecarioUF', r.credit_payment::text,
          'bonoPieUF', r.subsidy_payment::text,
          'totalEscrituracionUF', r.total_payment::text,
          'banco', r.bank_name,
          'vendedor', (select s.first_name || ' ' || s.last_name from profiles s where s.id = r.seller_id),
          'broker', (select b.name from brokers b where b.id = r.broker_id),
          'resciliada', r.is_rescinded,
          'resciliadaEl', ${isoInstant(sql`r.rescinded_at`)},
          'motivoResciliacion', r.rescinded_reason,
          'comision', (select json_build_object(
              'montoUF', bc.commission_amount::text, 'netaUF', bc.net_commission::text,
              'incluyeIva', bc.commission_includes_tax, 'numeroPagos', bc.number_of_payments,
              'porcentajePrimerPago', bc.first_payment_percentage,
              'fechaPago1', bc.payment_1_date, 'fechaPago2', bc.payment_2_date,
              'enRiesgo', bc.at_risk, 'multaUF', bc.penalty_amount::text)
            from broker_commissions bc where bc.reservation_id = r.id),
          'promociones', coalesce((select json_agg(json_build_object(
              'montoUF', pr.amount::text, 'fechaPago', pr.payment_date,
              'beneficiario', case when pr.rut = ${holderRut} then pr.beneficiary end,
              'rut', case when pr.rut = ${holderRut} then pr.rut end,
              'banco', case when pr.rut = ${holderRut} then pr.bank end,
              'cuenta', case when pr.rut = ${holderRut} then pr.account_number end,
              'correo', case when pr.rut = ${holderRut} then pr.email end) order by pr.created_at)
            from promotions pr where pr.reservation_id = r.id), '[]'),
          'unidades', coalesce((select json_agg(json_build_object(
              'tipo', case u.kind when 'apartment' then 'Departamento'
                                  when 'parking' then 'Estacionamiento' else 'Bodega' end,
              'numero', u.number, 'precioUF', ru.price::text, 'vigente', ru.is_live)
              order by u.kind, u.number)
            from reservation_units ru join units u on u.id = ru.unit_id
           where ru.reservation_id = r.id), '[]'),
          'flujos', coalesce((select json_agg(json_build_object(
              'tipo', case f.kind when 'sale' then 'Flujo de venta'
                                  else case when f.is_second_payment then 'Segundo pago' else 'Flujo de pago' end end,
              'estado', case f.status when 'pending' then 'Pendiente' when 'in_progress' then 'En proceso'
                                      when 'completed' then 'Completado' else 'Cancelado' end,
              'iniciado', ${isoInstant(sql`f.started_at`)},
              'completado', ${isoInstant(sql`f.completed_at`)},
              'etapaActual', (select s.name from workflow_stages s where s.id = f.current_stage_id))
              order by f.created_at)
            from flows f where f.reservation_id = r.id), '[]')) as reservation
          from reservations r
          join projects p on p.id = r.project_id
         where r.client_id = ${clientId}
         order by r.reservation_date, r.reservation_number`,
  );
  return rows.map((row) => row.reservation);
}

/**
 * Comments on the holder's flows, and any other comment naming them (their full name): the two sets
 * found apart (by key, and by one pass over the comments' text), then joined for their names; an `or`
 * across the joins walked every comment's task, flow and reservation.
 */
export function listCommentsAboutHolder(db: Executor, clientId: string, fullName: string) {
  const named = `%${foldForSearch(fullName).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return queryRows<Record<string, unknown>>(
    db,
    sql`select ${isoInstant(sql`c.created_at`)} as fecha,
               (select u.first_name || ' ' || u.last_name from profiles u where u.id = c.user_id) as autor,
               t.name as tarea, r.reservation_number as reserva, c.content as comentario
          from flow_task_comments c
          join flow_tasks ft on ft.id = c.flow_task_id
          join workflow_tasks t on t.id = ft.task_id
          join flows f on f.id = ft.flow_id
          join reservations r on r.id = f.reservation_id
         where c.id in (
                 select mine.id from reservations hr
                   join flows hf on hf.reservation_id = hr.id
                   join flow_tasks hft on hft.flow_id = hf.id
                   join flow_task_comments mine on mine.flow_task_id = hft.id
                  where hr.client_id = ${clientId}
                 union
                 select naming.id from flow_task_comments naming where privacy_fold(naming.content) like ${named})
         order by c.created_at, c.id`,
  );
}

/**
 * The documents kept on the holder's reservations (decision 0037), each with its current version:
 * what is held, listed; the files themselves are downloaded from the reservation's Documentos.
 */
export function documentsOfHolder(db: Executor, clientId: string) {
  return queryRows<Record<string, unknown>>(
    db,
    sql`select r.reservation_number as reserva, t.name as tipo, d.name as nombre, d.current_version as version,
               v.file_name as archivo, v.content_type as "tipoArchivo", v.byte_size as bytes,
               (select u.first_name || ' ' || u.last_name from profiles u where u.id = v.created_by) as "subidoPor",
               ${isoInstant(sql`v.created_at`)} as "subidoEl"
          from documents d
          join reservations r on r.id = d.reservation_id
          join document_types t on t.id = d.document_type_id
          join document_versions v on v.document_id = d.id and v.number = d.current_version
         where r.client_id = ${clientId}
         order by r.reservation_number, d.created_at, d.id`,
  );
}

export interface HistoryRow {
  occurredAt: string;
  actorName: string | null;
  action: string;
  tableName: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  taskName: string | null;
  /** Names of the records its values point at (their own client, project, seller, tasks). */
  references: Record<string, string> | null;
}

/**
 * The audit trail of the holder's records: the client, their reservations and their flows, each row
 * named as the Auditoría names it (the same task and reference look-ups, found by key: at 4 million
 * log rows a task compared as text read every task for each row and the export never answered).
 */
export function historyOfHolder(db: Executor, clientId: string): Promise<HistoryRow[]> {
  return queryRows<HistoryRow>(
    db,
    sql`with roots as (
          select ${clientId}::uuid as id
          union all select r.id from reservations r where r.client_id = ${clientId}
          union all select f.id from flows f join reservations r on r.id = f.reservation_id where r.client_id = ${clientId})
        select page."occurredAt", page."actorName", page.action, page."tableName", page.before, page.after,
               ${audit.taskNameOfPageRow} as "taskName", ${audit.referencesOfPageRow} as "references"
          from (select l.id, ${isoInstant(sql`l.occurred_at`)} as "occurredAt",
                       (select u.first_name || ' ' || u.last_name from profiles u where u.id = l.actor_id) as "actorName",
                       l.action, l.table_name as "tableName", l.record_id as "recordId", l.before, l.after
                  from audit_log l
                 where l.root_id in (select id from roots)) page
         order by page.id`,
  );
}

export function requestsOfHolder(db: Executor, clientId: string, rut: string) {
  return queryRows<{
    kind: DataRequestKind;
    receivedDate: string;
    dueDate: string;
    status: DataRequestStatus;
    response: string | null;
  }>(
    db,
    sql`select kind, received_date as "receivedDate", due_date as "dueDate", status, response
          from data_subject_requests where client_id = ${clientId} or holder_rut = ${rut}
         order by received_date, id`,
  );
}

/**
 * The buyer's account of each of the holder's reservations (decision 0073): the plan, its lines and
 * the payments received (a reversed one with when and why), as JSON in Spanish.
 */
export function buyerAccountsOfHolder(db: Executor, clientId: string) {
  return queryRows(
    db,
    sql`select r.reservation_number as reserva,
               bp.reservation_amount::text as "reservaUF", bp.promise_amount::text as "promesaUF",
               bp.down_payment_amount::text as "pieUF", bp.installment_count as cuotas,
               bp.credit_amount::text as "creditoHipotecarioUF", bp.subsidy_amount::text as "bonoPieUF",
               bp.promise_date as "fechaPromesa", bp.expected_deed_date as "fechaEscrituraEsperada",
               bp.paid_amount::text as "pagadoUF", bp.pie_waived_reason as "motivoPieExento",
               coalesce((select json_agg(json_build_object(
                   'tipo', case l.kind when 'reservation' then 'Reserva' when 'promise' then 'Promesa' else 'Pie' end,
                   'cuota', l.number, 'vence', l.due_date, 'montoUF', l.amount::text,
                   'pagadoUF', l.paid_amount::text) order by l.sort_order)
                 from buyer_plan_lines l where l.plan_id = bp.id), '[]') as lineas,
               coalesce((select json_agg(json_build_object(
                   'fecha', p.paid_date, 'montoUF', p.amount::text, 'montoCLP', p.amount_clp::text,
                   'valorUF', p.uf_value::text,
                   'medio', case p.means when 'transfer' then 'Transferencia' when 'bankDraft' then 'Vale vista'
                                         when 'cheque' then 'Cheque' else 'Tarjeta' end,
                   'documento', p.document_number,
                   'reversadoEl', ${isoInstant(sql`p.reversed_at`)}, 'motivoReverso', p.reversal_reason)
                   order by p.paid_date, p.created_at)
                 from buyer_payments p where p.plan_id = bp.id), '[]') as pagos
          from buyer_plans bp
          join reservations r on r.id = bp.reservation_id
         where r.client_id = ${clientId}
         order by r.reservation_number`,
    exportRow,
  );
}

/**
 * The quotes made for the holder (issue 59): those that became their reservations, and those whose
 * prospect is them by RUT or e-mail (a prospect's data are the holder's once they are a client).
 */
export function quotesOfHolder(db: Executor, clientId: string, rut: string, email: string | null) {
  return queryRows(
    db,
    sql`select q.number as cotizacion, p.name as proyecto, q.quote_date as fecha, q.valid_until as "validaHasta",
               q.prospect_name as nombre, q.prospect_email as correo, q.prospect_phone as telefono,
               q.prospect_rut as rut, q.list_price::text as "precioListaUF", q.final_price::text as "precioFinalUF",
               q.reservation_amount::text as "reservaUF", q.down_payment::text as "pieUF", q.installments as cuotas,
               q.subsidy_amount::text as "bonoPieUF", q.credit_amount::text as "creditoHipotecarioUF",
               (select r.reservation_number from reservations r where r.id = q.reservation_id) as reserva
          from quotes q
          join projects p on p.id = q.project_id
         where q.reservation_id in (select r.id from reservations r where r.client_id = ${clientId})
            or q.prospect_rut = ${rut}
            or (${email}::text is not null and lower(q.prospect_email) = lower(${email}::text))
         order by q.number`,
    exportRow,
  );
}
