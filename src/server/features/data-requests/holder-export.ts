import type ExcelJS from 'exceljs';
import { describeAuditRow } from '../../../shared/audit/describe';
import { formatRut } from '../../../shared/domain/rut';
import { formatDateTime } from '../../../shared/format';
import { can } from '../../../shared/permissions';
import type { AuditAction } from '../../../shared/schemas/audit';
import { changesInOneLine } from '../../../shared/schemas/audit';
import { dataRequestKindLabels, dataRequestStatusLabels } from '../../../shared/schemas/data-requests';
import type { ServiceContext } from '../../context';
import { loadExcelJs } from '../../exports/exceljs';
import { AppError } from '../../http/app-error';
import * as audit from '../audit/audit.service';
import * as queries from './holder-export.queries';

/**
 * 'Exportar datos del titular' (Ley 21.719: access and portability; issue 27, decision 0027):
 * everything held about one person, as a structured JSON and a readable XLSX, in Spanish. What is
 * exported is decided by the schema: every table that points at clients, or at a client's
 * reservations, is listed in HOLDER_DATA_TABLES with where the export shows it (or why it does not);
 * a test reads the schema's foreign keys and fails on a table missing here.
 */
export const HOLDER_DATA_TABLES: Record<string, string> = {
  reservations: 'reservas',
  broker_commissions: 'reservas[].comision',
  reservation_units:
    'reservas[].unidades (las unidades del inventario que reservó, con el precio de su lista)',
  promotions: 'reservas[].promociones (los datos del beneficiario solo cuando es el titular)',
  flows: 'reservas[].flujos (con sus comentarios)',
  documents:
    'documentos (cada documento de sus reservas con su versión vigente; los archivos se descargan de la reserva)',
  buyer_plans: 'cuentasComprador (el plan de pagos de cada reserva)',
  buyer_plan_lines: 'cuentasComprador[].lineas',
  buyer_payments: 'cuentasComprador[].pagos (los reversados, con cuándo y por qué)',
  quotes: 'cotizaciones (las que se hicieron reserva suya, y las de un prospecto con su RUT o su correo)',
  data_subject_requests: 'solicitudes',
  client_blocked_values:
    'no se exporta: son los valores que una supresión bloqueó por un deber legal; se leen con su acción auditada',
};

export interface HolderExport {
  generado: string;
  titular: Record<string, unknown>;
  reservas: Record<string, unknown>[];
  comentarios: Record<string, unknown>[];
  documentos: Record<string, unknown>[];
  cuentasComprador: Record<string, unknown>[];
  cotizaciones: Record<string, unknown>[];
  historial: Record<string, unknown>[];
  solicitudes: Record<string, unknown>[];
}

/** Everything held about the client, as the JSON export carries it. */
export async function holderData(ctx: ServiceContext, clientId: string): Promise<HolderExport> {
  if (!can(ctx.user, 'dataRequests.manage')) throw new AppError('FORBIDDEN');
  const client = await queries.findHolder(ctx.db, clientId);
  if (!client) throw new AppError('CLIENT_NOT_FOUND');
  if (client.suppressedAt !== null) throw new AppError('HOLDER_ALREADY_SUPPRESSED');
  const [reservations, comments, documents, accounts, quotes, history, requests] = await Promise.all([
    queries.reservationsOfHolder(ctx.db, clientId, client.rut),
    queries.listCommentsAboutHolder(ctx.db, clientId, `${client.firstName} ${client.lastName}`),
    queries.documentsOfHolder(ctx.db, clientId),
    queries.buyerAccountsOfHolder(ctx.db, clientId),
    queries.quotesOfHolder(ctx.db, clientId, client.rut, client.email),
    queries.historyOfHolder(ctx.db, clientId),
    queries.requestsOfHolder(ctx.db, clientId, client.rut),
  ]);
  return {
    generado: formatDateTime(ctx.now),
    titular: {
      rut: formatRut(client.rut),
      nombres: client.firstName,
      apellidos: client.lastName,
      fechaNacimiento: client.birthDate,
      telefono: client.phone,
      correo: client.email,
      registradoEl: formatDateTime(client.createdAt),
      eliminadoEl: client.deletedAt === null ? null : formatDateTime(client.deletedAt),
      restriccion:
        client.restriction === null ? null : client.restriction === 'opposition' ? 'Oposición' : 'Bloqueo',
    },
    reservas: reservations,
    comentarios: comments,
    documentos: documents,
    cuentasComprador: accounts,
    cotizaciones: quotes,
    historial: history.map((row) => {
      const described = describeAuditRow({
        action: row.action as AuditAction,
        table: row.tableName,
        before: row.before,
        after: row.after,
        taskName: row.taskName,
        references: row.references,
      });
      return {
        fecha: formatDateTime(row.occurredAt),
        usuario: row.actorName ?? audit.SYSTEM_NAME,
        registro: described.subject,
        accion: described.summary,
        cambios: described.changes.map((change) => ({
          campo: change.field,
          antes: change.before,
          despues: change.after,
        })),
      };
    }),
    solicitudes: requests.map((request) => ({
      tipo: dataRequestKindLabels[request.kind],
      recibida: request.receivedDate,
      vence: request.dueDate,
      estado: dataRequestStatusLabels[request.status],
      respuesta: request.response,
    })),
  };
}

type Cell = string | number | boolean | Date | null;

/** The export's keys as a person reads them (the JSON keeps the keys; the workbook shows these). */
const HEADERS: Record<string, string> = {
  rut: 'RUT',
  nombres: 'Nombres',
  apellidos: 'Apellidos',
  fechaNacimiento: 'Fecha de nacimiento',
  telefono: 'Teléfono',
  correo: 'Correo',
  registradoEl: 'Registrado el',
  eliminadoEl: 'Eliminado el',
  restriccion: 'Restricción',
  numero: 'N° de reserva',
  reserva: 'N° de reserva',
  proyecto: 'Proyecto',
  etapa: 'Etapa',
  departamento: 'Departamento',
  estacionamiento: 'Estacionamiento',
  bodega: 'Bodega',
  fechaReserva: 'Fecha de reserva',
  fechaPromesa: 'Fecha de promesa',
  fechaEscritura: 'Fecha de escritura',
  precioDepartamentoUF: 'Precio departamento (UF)',
  precioEstacionamientoUF: 'Precio estacionamiento (UF)',
  precioBodegaUF: 'Precio bodega (UF)',
  precioListaUF: 'Precio lista (UF)',
  descuentoColumna: 'Descuento columna',
  descuentoAdicional: 'Descuento adicional',
  otroDescuento: 'Otro descuento',
  precioMinimoUF: 'Precio mínimo (UF)',
  reservaUF: 'Reserva (UF)',
  promesaUF: 'Promesa (UF)',
  pieUF: 'Pie (UF)',
  creditoHipotecarioUF: 'Crédito hipotecario (UF)',
  bonoPieUF: 'Bono pie (UF)',
  totalEscrituracionUF: 'Total escrituración (UF)',
  banco: 'Banco',
  vendedor: 'Vendedor',
  broker: 'Broker',
  resciliada: 'Resciliada',
  resciliadaEl: 'Resciliada el',
  motivoResciliacion: 'Motivo de la resciliación',
  unidades: 'Unidades',
  montoUF: 'Monto (UF)',
  netaUF: 'Neta (UF)',
  incluyeIva: 'Incluye IVA',
  numeroPagos: 'N° de pagos',
  porcentajePrimerPago: '% primer pago',
  fechaPago1: 'Fecha pago 1',
  fechaPago2: 'Fecha pago 2',
  enRiesgo: 'En riesgo',
  multaUF: 'Multa (UF)',
  fechaPago: 'Fecha de pago',
  beneficiario: 'Beneficiario',
  cuenta: 'Cuenta',
  tipo: 'Tipo',
  estado: 'Estado',
  iniciado: 'Iniciado',
  completado: 'Completado',
  etapaActual: 'Etapa actual',
  fecha: 'Fecha',
  usuario: 'Usuario',
  registro: 'Registro',
  accion: 'Qué pasó',
  cambios: 'Qué cambió',
  recibida: 'Recibida',
  vence: 'Vence',
  respuesta: 'Respuesta',
  cuotas: 'Cuotas del pie',
  fechaEscrituraEsperada: 'Fecha de escritura esperada',
  pagadoUF: 'Pagado (UF)',
  motivoPieExento: 'Motivo del pie exento',
  cuota: 'Cuota',
  montoCLP: 'Monto ($)',
  valorUF: 'Valor UF',
  medio: 'Medio de pago',
  documento: 'N° de documento',
  reversadoEl: 'Reversado el',
  motivoReverso: 'Motivo del reverso',
  cotizacion: 'N° de cotización',
  validaHasta: 'Válida hasta',
  nombre: 'Nombre',
  precioFinalUF: 'Precio final (UF)',
};

const headerOf = (key: string) =>
  HEADERS[key] ?? key.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/^./, (first) => first.toUpperCase());

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const DECIMAL = /^-?\d+(\.\d+)?$/;

/** A value as a typed cell: amounts as numbers, days as dates, instants in Santiago time, yes/no. */
function cellOf(key: string, value: unknown): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean') return value ? 'Sí' : 'No';
  if (typeof value === 'number') return value;
  if (Array.isArray(value)) {
    if (key === 'cambios')
      return changesInOneLine(
        (value as { campo: string; antes: string | null; despues: string | null }[]).map((change) => ({
          field: change.campo,
          before: change.antes,
          after: change.despues,
        })),
      );
    return value
      .map((item) =>
        item && typeof item === 'object'
          ? Object.entries(item)
              .filter(([, inner]) => inner !== null)
              .map(([innerKey, inner]) => `${headerOf(innerKey)}: ${String(cellOf(innerKey, inner))}`)
              .join(', ')
          : String(item),
      )
      .join('; ');
  }
  if (typeof value === 'object') return JSON.stringify(value);
  const text = String(value);
  if (DAY.test(text)) return new Date(`${text}T12:00:00Z`);
  if (INSTANT.test(text)) return formatDateTime(text);
  if (DECIMAL.test(text) && /UF$|^descuento|Descuento$|^porcentaje/.test(key)) return Number(text);
  return text;
}

/** A sheet of flat rows: a header from the keys in Spanish, typed cells. */
function addSheet(workbook: ExcelJS.Workbook, name: string, rows: Record<string, unknown>[]) {
  const sheet = workbook.addWorksheet(name);
  const keys = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  if (keys.length === 0) {
    sheet.addRow(['Sin registros']);
    return;
  }
  sheet.addRow(keys.map(headerOf));
  sheet.getRow(1).font = { bold: true };
  sheet.views = [{ state: 'frozen', ySplit: 1 }];
  for (const row of rows) sheet.addRow(keys.map((key) => cellOf(key, row[key])));
  sheet.columns.forEach((column, index) => {
    const key = keys[index] ?? '';
    column.width = key === 'cambios' || key === 'accion' ? 60 : 22;
    if (/UF$/.test(key)) column.numFmt = '#,##0.00';
    else if (/^descuento|Descuento$/.test(key)) column.numFmt = '0.00%';
    else if (/^fecha(?!$)|^recibida$|^vence$/.test(key)) column.numFmt = 'dd/mm/yyyy';
  });
}

/** The readable workbook: one sheet per part of the JSON, the reservations' parts flattened. */
export async function holderWorkbook(data: HolderExport): Promise<Buffer> {
  const ExcelJS = await loadExcelJs();
  const workbook = new ExcelJS.Workbook();
  workbook.created = new Date();
  addSheet(workbook, 'Titular', [data.titular]);
  addSheet(
    workbook,
    'Reservas',
    data.reservas.map(({ comision: _c, promociones: _p, flujos: _f, ...reservation }) => reservation),
  );
  addSheet(
    workbook,
    'Comisiones',
    data.reservas.flatMap((reservation) =>
      reservation.comision ? [{ reserva: reservation.numero, ...(reservation.comision as object) }] : [],
    ),
  );
  addSheet(
    workbook,
    'Promociones',
    data.reservas.flatMap((reservation) =>
      ((reservation.promociones as Record<string, unknown>[] | undefined) ?? []).map((promotion) => ({
        reserva: reservation.numero,
        ...promotion,
      })),
    ),
  );
  addSheet(
    workbook,
    'Flujos',
    data.reservas.flatMap((reservation) =>
      ((reservation.flujos as Record<string, unknown>[] | undefined) ?? []).map(
        ({ comentarios: _c, ...flow }) => ({
          reserva: reservation.numero,
          ...flow,
        }),
      ),
    ),
  );
  addSheet(workbook, 'Comentarios', data.comentarios);
  addSheet(workbook, 'Documentos', data.documentos);
  addSheet(
    workbook,
    'Cuenta del comprador',
    data.cuentasComprador.map(({ lineas: _l, pagos: _p, ...plan }) => plan),
  );
  addSheet(
    workbook,
    'Plan de pagos',
    data.cuentasComprador.flatMap((plan) =>
      ((plan.lineas as Record<string, unknown>[] | undefined) ?? []).map((line) => ({
        reserva: plan.reserva,
        ...line,
      })),
    ),
  );
  addSheet(
    workbook,
    'Pagos',
    data.cuentasComprador.flatMap((plan) =>
      ((plan.pagos as Record<string, unknown>[] | undefined) ?? []).map((payment) => ({
        reserva: plan.reserva,
        ...payment,
      })),
    ),
  );
  addSheet(workbook, 'Cotizaciones', data.cotizaciones);
  addSheet(workbook, 'Historial', data.historial);
  addSheet(workbook, 'Solicitudes', data.solicitudes);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
