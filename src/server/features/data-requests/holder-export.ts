import type ExcelJS from 'exceljs';
import { describeAuditRow } from '../../../shared/audit/describe';
import { formatRut } from '../../../shared/domain/rut';
import { can } from '../../../shared/permissions';
import type { AuditAction } from '../../../shared/schemas/audit';
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
  historial: Record<string, unknown>[];
  solicitudes: Record<string, unknown>[];
}

/** Everything held about the client, as the JSON export carries it. */
export async function holderData(ctx: ServiceContext, clientId: string): Promise<HolderExport> {
  if (!can(ctx.user, 'dataRequests.manage')) throw new AppError('FORBIDDEN');
  const client = await queries.findHolder(ctx.db, clientId);
  if (!client) throw new AppError('CLIENT_NOT_FOUND');
  if (client.suppressedAt !== null) throw new AppError('HOLDER_ALREADY_SUPPRESSED');
  const [reservations, comments, documents, history, requests] = await Promise.all([
    queries.reservationsOfHolder(ctx.db, clientId, client.rut),
    queries.listCommentsAboutHolder(ctx.db, clientId, `${client.firstName} ${client.lastName}`),
    queries.documentsOfHolder(ctx.db, clientId),
    queries.historyOfHolder(ctx.db, clientId),
    queries.requestsOfHolder(ctx.db, clientId, client.rut),
  ]);
  return {
    generado: ctx.now.toISOString(),
    titular: {
      rut: formatRut(client.rut),
      nombres: client.firstName,
      apellidos: client.lastName,
      fechaNacimiento: client.birthDate,
      telefono: client.phone,
      correo: client.email,
      registradoEl: client.createdAt,
      eliminadoEl: client.deletedAt,
      restriccion:
        client.restriction === null ? null : client.restriction === 'opposition' ? 'Oposición' : 'Bloqueo',
    },
    reservas: reservations,
    comentarios: comments,
    documentos: documents,
    historial: history.map((row) => {
      const described = describeAuditRow({
        action: row.action as AuditAction,
        table: row.tableName,
        before: row.before,
        after: row.after,
        taskName: null,
        references: null,
      });
      return {
        fecha: row.occurredAt,
        usuario: row.actorName ?? audit.SYSTEM_NAME,
        registro: described.subject,
        accion: described.summary,
        cambios: described.changes,
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

type Cell = string | number | boolean | null;

/** A sheet of flat rows: a header from the keys, nested values as text. */
function addSheet(workbook: ExcelJS.Workbook, name: string, rows: Record<string, unknown>[]) {
  const sheet = workbook.addWorksheet(name);
  const keys = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  if (keys.length === 0) {
    sheet.addRow(['Sin registros']);
    return;
  }
  sheet.addRow(keys);
  sheet.getRow(1).font = { bold: true };
  sheet.views = [{ state: 'frozen', ySplit: 1 }];
  for (const row of rows) {
    sheet.addRow(
      keys.map((key): Cell => {
        const value = row[key];
        if (value === null || value === undefined) return null;
        if (typeof value === 'object') return JSON.stringify(value);
        return value as Cell;
      }),
    );
  }
  sheet.columns.forEach((column) => {
    column.width = 22;
  });
}

/** The readable workbook: one sheet per part of the JSON, the reservations' parts flattened. */
export async function holderWorkbook(data: HolderExport): Promise<Buffer> {
  const ExcelJS = await loadExcelJs();
  const workbook = new ExcelJS.Workbook();
  workbook.created = new Date(data.generado);
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
    'Historial',
    data.historial.map(({ cambios: _c, ...entry }) => entry),
  );
  addSheet(workbook, 'Solicitudes', data.solicitudes);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
