import type {
  BrokerConsolidatedRow,
  BrokerPaymentRow,
  BrokersReportRow,
  CommissionReportKind,
  CommissionReportRow,
  SalesReportRow,
} from '../schemas/reports';
import { reportColumns } from './columns';

/**
 * Each report's columns — Spanish header, row key, format — once: the screens, the CSV and the XLSX
 * all read these (DESIGN §11). Headers are the spec's (part 2 §2). 'Estado' (Vigente / Resciliada,
 * shared/domain/figures.ts) is a column of the exports; the screens show it as the badge beside the
 * reservation's number (`hidden`).
 */

export const COMMISSION_REPORT_COLUMNS = reportColumns<CommissionReportRow>()([
  { key: 'reservationNumber', header: 'N° Reserva', format: 'text', width: 14 },
  { key: 'statusLabel', header: 'Estado', format: 'text', width: 12 },
  { key: 'clientName', header: 'Cliente', format: 'text', width: 30 },
  { key: 'projectName', header: 'Proyecto', format: 'text', width: 24 },
  { key: 'apartmentNumber', header: 'Depto.', format: 'text', width: 10 },
  { key: 'brokerName', header: 'Broker', format: 'text', width: 26 },
  { key: 'commissionAmount', header: 'Comisión', format: 'uf' },
  { key: 'netAmount', header: 'Monto Neto', format: 'uf' },
  { key: 'ufValue', header: 'Valor UF', format: 'ufValue' },
  { key: 'clpAmount', header: 'Monto CLP', format: 'clp' },
  { key: 'clpState', header: 'CLP', format: 'text', width: 22 },
]);

export const BROKERS_REPORT_COLUMNS = reportColumns<BrokersReportRow>()([
  { key: 'reservationNumber', header: 'N° Reserva', format: 'text', width: 14 },
  { key: 'statusLabel', header: 'Estado', format: 'text', width: 12 },
  { key: 'clientName', header: 'Cliente', format: 'text', width: 30 },
  { key: 'projectName', header: 'Proyecto', format: 'text', width: 24 },
  { key: 'brokerName', header: 'Broker', format: 'text', width: 26 },
  { key: 'reservationDate', header: 'Fecha de Reserva', format: 'date' },
  { key: 'promiseDate', header: 'Promesa', format: 'date' },
  { key: 'deedDate', header: 'Escritura', format: 'date' },
  { key: 'commissionAmount', header: 'Comisión', format: 'uf' },
]);

export const SALES_REPORT_COLUMNS = reportColumns<SalesReportRow>()([
  { key: 'reservationNumber', header: 'N° Reserva', format: 'text', width: 14 },
  { key: 'statusLabel', header: 'Estado', format: 'text', width: 12 },
  { key: 'clientName', header: 'Cliente', format: 'text', width: 30 },
  { key: 'projectName', header: 'Proyecto', format: 'text', width: 24 },
  { key: 'apartmentNumber', header: 'Depto.', format: 'text', width: 10 },
  { key: 'brokerName', header: 'Broker', format: 'text', width: 26 },
  { key: 'reservationDate', header: 'Fecha de Reserva', format: 'date' },
  { key: 'promiseDate', header: 'Promesa', format: 'date' },
  { key: 'deedDate', header: 'Escritura', format: 'date' },
  { key: 'totalPayment', header: 'Escrituración', format: 'uf' },
]);

export const BROKER_PAYMENTS_REPORT_COLUMNS = reportColumns<BrokerPaymentRow>()([
  { key: 'reservationNumber', header: 'N° Reserva', format: 'text', width: 14 },
  { key: 'projectName', header: 'Proyecto', format: 'text', width: 24 },
  { key: 'apartmentNumber', header: 'Depto.', format: 'text', width: 10 },
  { key: 'brokerName', header: 'Broker', format: 'text', width: 26 },
  { key: 'paymentLabel', header: 'Pago', format: 'text', width: 8 },
  { key: 'taskName', header: 'Tarea', format: 'text', width: 30 },
  { key: 'assigneeName', header: 'Responsable', format: 'text', width: 24 },
  { key: 'startedDate', header: 'Inicio', format: 'date' },
  { key: 'daysPending', header: 'Días', format: 'integer' },
  { key: 'daysLate', header: 'Días de atraso', format: 'integer' },
  { key: 'paymentUf', header: 'Monto UF', format: 'uf' },
  { key: 'ufValue', header: 'Valor UF', format: 'ufValue' },
  { key: 'clpAmount', header: 'Monto CLP', format: 'clp' },
  { key: 'clpState', header: 'CLP', format: 'text', width: 22 },
]);

export const BROKER_CONSOLIDATED_COLUMNS = reportColumns<BrokerConsolidatedRow>()([
  { key: 'reservationNumber', header: 'N° Reserva', format: 'text', width: 14 },
  { key: 'clientName', header: 'Cliente', format: 'text', width: 30 },
  { key: 'projectName', header: 'Proyecto', format: 'text', width: 24 },
  { key: 'apartmentNumber', header: 'Depto.', format: 'text', width: 10 },
  { key: 'commissionAmount', header: 'Comisión', format: 'uf' },
  { key: 'payment1Date', header: 'Fecha Pago 1', format: 'date' },
  { key: 'payment2Date', header: 'Fecha Pago 2', format: 'date' },
  { key: 'paidAmount', header: 'Pagado', format: 'uf' },
  { key: 'paidClp', header: 'Pagado CLP', format: 'clp' },
  { key: 'statusLabel', header: 'Estado', format: 'text', width: 14 },
  { key: 'atRiskReason', header: 'Motivo del Riesgo', format: 'text', width: 30 },
]);

/** Titles, empty texts and file names of the two commission reports (spec part 2 §2, §9). */
export const COMMISSION_REPORT_TEXTS: Record<
  CommissionReportKind,
  { title: string; empty: string; noMonth: string; filePrefix: string; sheet: string }
> = {
  payment: {
    title: 'Informe de Comisiones',
    empty: 'No hay comisiones para el mes seleccionado',
    noMonth: 'Seleccione un mes para ver las comisiones',
    filePrefix: 'informe_comisiones',
    sheet: 'Informe de Comisiones',
  },
  projection: {
    title: 'Proyección Comisiones',
    empty: 'No hay proyecciones para el mes seleccionado',
    noMonth: 'Seleccione un mes para ver las proyecciones',
    filePrefix: 'proyeccion_comisiones',
    sheet: 'Proyección Comisiones',
  },
};

export const REPORT_FILE_PREFIXES = {
  brokers: 'informe_brokers',
  sales: 'informe_ventas',
  brokerPayments: 'informe_pagos_brokers',
  brokerConsolidated: 'consolidado_broker',
} as const;
