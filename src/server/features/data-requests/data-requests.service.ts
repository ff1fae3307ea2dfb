import { mkdir } from 'node:fs/promises';
import { calendarDaysBetween, holderNeedles, needlePattern } from '../../../shared/domain/privacy';
import { type ErrorCode, errorMessage } from '../../../shared/errors';
import { formatDate, santiagoDateOf } from '../../../shared/format';
import { can } from '../../../shared/permissions';
import type {
  DataRequestDetail,
  DataRequestListParams,
  DataRequestPage,
  DataRequestRow,
  DataRequestUpdateBody,
  DataRequestValues,
  RetentionPage,
} from '../../../shared/schemas/data-requests';
import type { ServiceContext } from '../../context';
import { asSystem } from '../../db/actor';
import type { Database, Executor } from '../../db/client';
import { AppError } from '../../http/app-error';
import * as audit from '../audit/audit.service';
import * as clients from '../clients/clients.service';
import * as documents from '../documents/documents.service';
import * as imports from '../imports/imports.service';
import * as mail from '../mail/mail.service';
import * as promotions from '../promotions/promotions.service';
import * as quotes from '../quotes/quotes.service';
import * as workflows from '../workflows/workflows.service';
import * as queries from './data-requests.queries';
import { hashedRut, type LedgerEntry, ledgerMatches, writeLedgerFile } from './ledger';

/**
 * Holders' data rights under Ley 21.719 (issue 27, decision 0027): the register of requests
 * ('Solicitudes de titulares'), and what answers them — the holder's data export (access,
 * portability), the suppression, opposition and blocking. Administrators only; every change is in the
 * audit trail, and a suppression's redaction of the trail is an event of its own.
 */

function requireManager(ctx: Pick<ServiceContext, 'user'>) {
  if (!can(ctx.user, 'dataRequests.manage')) throw new AppError('FORBIDDEN');
}

const allowance = (refusal: ErrorCode | null) => ({
  allowed: refusal === null,
  reason: refusal === null ? null : errorMessage(refusal),
});

function rowView(row: queries.RequestRow, today: string): DataRequestRow {
  const open = row.status === 'pending' || row.status === 'in_progress';
  const daysLeft = calendarDaysBetween(today, row.dueDate);
  return {
    id: row.id,
    kind: row.kind,
    holderRut: row.holderRut,
    holder:
      row.clientId === null
        ? null
        : {
            clientId: row.clientId,
            name: row.clientName ?? '',
            isSuppressed: row.isSuppressed === true,
            isDeleted: row.isDeleted === true,
            restriction: row.restriction,
            reservations: row.reservations ?? 0,
          },
    receivedDate: row.receivedDate,
    dueDate: row.dueDate,
    daysLeft,
    isOverdue: open && daysLeft < 0,
    status: row.status,
    handledBy:
      row.handledById === null
        ? null
        : {
            id: row.handledById,
            firstName: row.handledByFirstName ?? '',
            lastName: row.handledByLastName ?? '',
          },
    answeredAt: row.answeredAt,
  };
}

export async function list(ctx: ServiceContext, query: DataRequestListParams): Promise<DataRequestPage> {
  requireManager(ctx);
  const page = await queries.listRequests(ctx.db, query);
  const today = santiagoDateOf(ctx.now);
  return { ...page, rows: page.rows.map((row) => rowView(row, today)) };
}

/**
 * What may be done about a request now (the screen renders it): export the holder's data for access
 * and portability; suppress, oppose or block for those kinds; rectify by editing the client. Each
 * needs the holder to be a client whose data were not suppressed.
 */
function actionsOf(
  row: queries.RequestDetailRow,
  salesInProgress: readonly string[],
): DataRequestDetail['actions'] {
  const open = row.status === 'pending' || row.status === 'in_progress';
  const holderRefusal: ErrorCode | null =
    row.clientId === null
      ? 'DATA_REQUEST_NO_HOLDER_DATA'
      : row.isSuppressed
        ? 'HOLDER_ALREADY_SUPPRESSED'
        : null;
  const forKind = (kinds: readonly string[]): ErrorCode | null =>
    holderRefusal ??
    (kinds.includes(row.kind) ? (open ? null : 'DATA_REQUEST_CLOSED') : 'DATA_REQUEST_WRONG_KIND');
  const suppressRefusal = forKind(['suppression']);
  return {
    exportData: allowance(holderRefusal),
    // A sale in progress refuses the suppression: said before anyone types SUPRIMIR (issue 57).
    suppress:
      suppressRefusal === null && salesInProgress.length > 0
        ? {
            allowed: false,
            reason: errorMessage('HOLDER_SALE_IN_PROGRESS', {
              numbers: salesInProgress.slice(0, 5).join(', '),
            }),
          }
        : allowance(suppressRefusal),
    restrict: allowance(forKind(['opposition', 'blocking'])),
    rectify: allowance(forKind(['rectification'])),
    readBlockedValues: allowance(
      row.clientId === null
        ? 'DATA_REQUEST_NO_HOLDER_DATA'
        : row.blockedValues > 0
          ? null
          : 'HOLDER_NO_BLOCKED_VALUES',
    ),
  };
}

export async function get(ctx: ServiceContext, id: string): Promise<DataRequestDetail> {
  requireManager(ctx);
  const row = await queries.findRequest(ctx.db, id);
  if (!row) throw new AppError('DATA_REQUEST_NOT_FOUND');
  return {
    ...rowView(row, santiagoDateOf(ctx.now)),
    details: row.details,
    response: row.response,
    createdBy:
      row.createdById === null
        ? null
        : {
            id: row.createdById,
            firstName: row.createdByFirstName ?? '',
            lastName: row.createdByLastName ?? '',
          },
    createdAt: row.createdAt,
    version: row.version,
    actions: actionsOf(
      row,
      row.clientId !== null && row.kind === 'suppression' && !row.isSuppressed
        ? await clients.salesInProgressIn(ctx.db, row.clientId)
        : [],
    ),
  };
}

/**
 * Registers a request. The holder is found by RUT; a RUT that is no client's is registered all the
 * same and answered at once 'no se tratan datos de este titular' (the law asks for an answer).
 */
export async function create(ctx: ServiceContext, values: DataRequestValues): Promise<DataRequestDetail> {
  requireManager(ctx);
  if (values.receivedDate > santiagoDateOf(ctx.now)) throw new AppError('DATA_REQUEST_RECEIVED_IN_FUTURE');
  const clientId = await queries.findHolderByRut(ctx.db, values.holderRut);
  const id = await ctx.db.transaction((tx) =>
    queries.insertRequest(
      tx,
      {
        ...values,
        clientId,
        status: clientId === null ? 'answered' : 'pending',
        response: clientId === null ? errorMessage('DATA_REQUEST_NO_HOLDER_DATA') : null,
      },
      ctx.user.id,
    ),
  );
  return get(ctx, id);
}

export async function update(
  ctx: ServiceContext,
  id: string,
  body: DataRequestUpdateBody,
): Promise<DataRequestDetail> {
  requireManager(ctx);
  const updated = await ctx.db.transaction(async (tx) => {
    if (!(await queries.lockRequest(tx, id))) throw new AppError('DATA_REQUEST_NOT_FOUND');
    return queries.updateRequest(
      tx,
      id,
      body.version,
      { status: body.status, response: body.response ?? null },
      ctx.user.id,
    );
  });
  if (!updated) throw new AppError('STALE_VERSION');
  return get(ctx, id);
}

/** The open request of the kind given, locked, with the holder it concerns (a client, not suppressed). */
async function requestToAct(
  tx: Executor,
  id: string,
  kinds: readonly string[],
): Promise<{
  requestId: string;
  clientId: string;
  kind: string;
  receivedDate: string;
  details: string | null;
}> {
  const request = await queries.lockRequest(tx, id);
  if (!request) throw new AppError('DATA_REQUEST_NOT_FOUND');
  if (!kinds.includes(request.kind)) throw new AppError('DATA_REQUEST_WRONG_KIND');
  if (request.clientId === null) throw new AppError('DATA_REQUEST_NO_HOLDER_DATA');
  if (request.status === 'answered' || request.status === 'rejected')
    throw new AppError('DATA_REQUEST_CLOSED');
  return {
    requestId: request.id,
    clientId: request.clientId,
    kind: request.kind,
    receivedDate: request.receivedDate,
    details: request.details,
  };
}

/**
 * 'Suprimir datos personales' (decision 0027), in one transaction: the client's identifying values
 * replaced ('Titular suprimido'), the RUT kept blocked when a legal duty requires it (a buyer with
 * reservations), a promotion paid to them kept as a payment with its payee blocked, every comment that
 * names them rewritten, and the audit trail's values about them redacted — then the redaction
 * recorded and the request answered. Refused while a sale of theirs is in progress (their data are
 * needed to carry it out: they may be blocked instead), and a second time.
 */
export async function suppress(
  ctx: ServiceContext,
  id: string,
  /** Where the files outside the database are: the backups (the ledger's copy) and the .eml copies. */
  files: { ledgerDir: string | null; mailDir: string | null } = { ledgerDir: null, mailDir: null },
) {
  requireManager(ctx);
  const { mailNeedles, ...done } = await ctx.db.transaction((tx) =>
    suppressIn(tx, id, { actorId: ctx.user.id, now: ctx.now, isReplay: false }),
  );
  // After the commit, the copies outside the database: the .eml copies naming them go, and the ledger
  // beside the backups learns of it at once (a restore of any earlier backup must).
  const mailCopies = files.mailDir ? await mail.removeMailCopiesNaming(files.mailDir, mailNeedles) : 0;
  if (files.ledgerDir) await writeLedgerBeside(ctx.db, files.ledgerDir, ctx.now);
  return { ...done, mailCopies };
}

/**
 * What the privacy settings keep for a limited time (decision 0055): an import's uploaded file and the
 * .eml copies of notices, deleted after their days. Nightly, with the maintenance.
 */
export async function applyFileRetention(db: Database, options: { mailDir: string | null; now: Date }) {
  const settings = await queries.findRetentionSettings(db);
  const importFiles = await imports.removeOldRunFiles(db, settings.importFileDays, options.now);
  const mailCopies = options.mailDir
    ? await mail.removeOldMailCopies(options.mailDir, settings.mailCopyDays, options.now)
    : 0;
  return { importFiles, mailCopies };
}

/**
 * The suppression itself, in the caller's transaction. `isReplay`: a restore carrying out again a
 * suppression its backup predates (decision 0054) — done as it was, even if the older copy shows a
 * sale in progress (the holder's data were already gone when the suppression was made).
 */
export async function suppressIn(
  tx: Executor,
  id: string,
  options: { actorId: string | null; now: Date; isReplay: boolean },
) {
  const { requestId, clientId, receivedDate } = await requestToAct(tx, id, ['suppression']);
  const holder = await clients.lockHolderIn(tx, clientId);
  if (!holder) throw new AppError('CLIENT_NOT_FOUND');
  if (holder.suppressedAt !== null) throw new AppError('HOLDER_ALREADY_SUPPRESSED');
  if (!options.isReplay) {
    const inProgress = await clients.salesInProgressIn(tx, clientId);
    if (inProgress.length > 0) {
      throw new AppError('HOLDER_SALE_IN_PROGRESS', {
        params: { numbers: inProgress.slice(0, 5).join(', ') },
      });
    }
  }
  const actorId = options.actorId;
  const past = await queries.listPastHolderValues(tx, clientId);
  const needles = holderNeedles(holder, {
    rut: past.rut,
    firstName: past.first_name,
    lastName: past.last_name,
    birthDate: past.birth_date,
    phone: past.phone,
    email: past.email,
  });
  const reservationIds = await clients.reservationIdsOfIn(tx, clientId);
  const flowIds = await workflows.flowIdsOfReservations(tx, reservationIds);

  // What a legal duty keeps is blocked first (read before it is overwritten).
  const blocked: Parameters<typeof queries.insertBlockedValues>[1] = [];
  if (reservationIds.length > 0) {
    blocked.push({
      clientId,
      tableName: 'clients',
      recordId: clientId,
      columnName: 'rut',
      value: holder.rut,
    });
  }
  const payees = await promotions.redactPayeeIn(tx, reservationIds, holder.rut, actorId);
  for (const payee of payees) {
    for (const [columnName, value] of Object.entries(payee.values)) {
      blocked.push({ clientId, tableName: 'promotions', recordId: payee.id, columnName, value });
    }
  }
  await queries.insertBlockedValues(tx, blocked, { requestId, userId: actorId, at: options.now });

  await clients.suppressIn(tx, clientId, actorId);
  // Their quotes, and a prospect's that is them by RUT or e-mail (issue 59).
  const redactedQuotes = await quotes.redactHolderProspectsIn(
    tx,
    {
      reservationIds,
      ruts: [...new Set([holder.rut, ...(past.rut ?? [])])],
      emails: [...new Set([holder.email, ...(past.email ?? [])].filter((email): email is string => !!email))],
    },
    actorId,
  );
  const redactedComments = await workflows.redactCommentsIn(tx, {
    flowIds,
    ownNeedles: needles.own,
    globalNeedles: needles.global,
  });
  // The papers stay (the sale's legal record); the names that name them do not.
  const redactedDocuments = await documents.redactNamesIn(tx, reservationIds, needles.own);
  // Import runs (their files, names and undo snapshots) and the outbox's notices (decision 0055).
  const importRuns = await imports.redactHolderRunsIn(tx, {
    clientId,
    reservationIds,
    needles: needles.global,
  });
  const redactedMail = await mail.redactHolderMailIn(tx, needles.global);
  // Last: the writes above logged the old values too; this redacts them with the rest.
  const redactedLogRows = await queries.updateAuditLogRedacted(
    tx,
    [clientId, ...reservationIds, ...flowIds, ...redactedQuotes],
    needles.own.map(needlePattern),
    needles.global.map(needlePattern),
  );
  await audit.recordPrivacyEventIn(tx, {
    action: 'redact',
    clientId,
    actorId,
    details: {
      solicitud: requestId,
      registros_redactados: redactedLogRows,
      comentarios: redactedComments,
      documentos: redactedDocuments,
      cotizaciones: redactedQuotes.length,
      importaciones: importRuns,
      correos: redactedMail,
      valores_bloqueados: blocked.map((value) => `${value.tableName}.${value.columnName}`),
      ...(options.isReplay ? { repetida_al_restaurar: true } : {}),
    },
  });
  await queries.updateRequestAnswerIn(tx, requestId, 'Datos personales suprimidos.', actorId);
  // The ledger (decision 0054): what a restore of an older backup must carry out again.
  await queries.insertLedgerEntry(tx, { requestId, receivedDate, ...hashedRut(holder.rut) });
  return {
    clientId,
    blockedValues: blocked.length,
    redactedLogRows,
    redactedComments,
    mailNeedles: needles.global,
  };
}

/** Opposition or blocking: the client flagged (non-essential processing stops), the request answered. */
export async function restrict(ctx: ServiceContext, id: string): Promise<DataRequestDetail> {
  requireManager(ctx);
  await ctx.db.transaction(async (tx) => {
    const { requestId, clientId, kind, receivedDate, details } = await requestToAct(tx, id, [
      'opposition',
      'blocking',
    ]);
    const restriction = kind === 'opposition' ? 'opposition' : 'blocking';
    // The reason shown on the client: the request it comes from, and what the holder wrote in it.
    const request = `Solicitud de ${kind === 'opposition' ? 'oposición' : 'bloqueo'} del ${formatDate(receivedDate)}`;
    await clients.restrictIn(
      tx,
      clientId,
      restriction,
      details ? `${request}: ${details}` : request,
      ctx.user.id,
    );
    await queries.updateRequestAnswerIn(
      tx,
      requestId,
      restriction === 'opposition' ? 'Oposición registrada.' : 'Datos bloqueados.',
      ctx.user.id,
    );
  });
  return get(ctx, id);
}

/** The values a suppression kept blocked, read by an administrator: the read is itself recorded. */
export async function blockedValues(ctx: ServiceContext, clientId: string) {
  requireManager(ctx);
  return ctx.db.transaction(async (tx) => {
    const values = await queries.listBlockedValues(tx, clientId);
    if (values.length === 0) throw new AppError('HOLDER_NO_BLOCKED_VALUES');
    await audit.recordPrivacyEventIn(tx, {
      action: 'read_blocked',
      clientId,
      actorId: ctx.user.id,
      details: { valores: values.map((value) => `${value.tableName}.${value.columnName}`) },
    });
    return values;
  });
}

// --- Retention --------------------------------------------------------------------------------------

export async function retention(
  ctx: ServiceContext,
  page: { page: number; pageSize: number },
): Promise<RetentionPage> {
  requireManager(ctx);
  const { retentionYears } = await queries.findRetentionSettings(ctx.db);
  const today = santiagoDateOf(ctx.now);
  const before = `${Number(today.slice(0, 4)) - retentionYears}${today.slice(4)}`;
  const found = await queries.listRetention(ctx.db, before, page);
  return { ...found, retentionYears };
}

export async function settings(ctx: ServiceContext) {
  requireManager(ctx);
  return queries.findRetentionSettings(ctx.db);
}

export async function updateSettings(
  ctx: ServiceContext,
  body: { retentionYears: number; importFileDays?: number; mailCopyDays?: number; version: number },
) {
  requireManager(ctx);
  const updated = await ctx.db.transaction((tx) =>
    queries.updateRetentionYears(tx, body, body.version, ctx.user.id),
  );
  if (!updated) throw new AppError('STALE_VERSION');
  return queries.findRetentionSettings(ctx.db);
}

// --- The bell ---------------------------------------------------------------------------------------

/** Requests past their due date, for an administrator's bell (0 for anyone else). */
export async function overdueCount(ctx: Pick<ServiceContext, 'db' | 'user' | 'now'>): Promise<number> {
  if (!can(ctx.user, 'dataRequests.manage')) return 0;
  return queries.countOverdue(ctx.db, santiagoDateOf(ctx.now));
}

/** The opposition or blocking lifted (the holder withdrew it): processing goes back to normal. */
export async function liftRestriction(ctx: ServiceContext, clientId: string): Promise<void> {
  requireManager(ctx);
  await ctx.db.transaction(async (tx) => {
    if (!(await clients.liftRestrictionIn(tx, clientId, ctx.user.id)))
      throw new AppError('CLIENT_NOT_RESTRICTED');
  });
}

/** The requests past their due date, oldest first (an administrator's /notificaciones; [] for anyone else). */
export async function overdueList(ctx: Pick<ServiceContext, 'db' | 'user' | 'now'>) {
  if (!can(ctx.user, 'dataRequests.manage')) return [];
  const today = santiagoDateOf(ctx.now);
  const rows = await queries.listOverdue(ctx.db, today, 50);
  return rows.map((row) => ({ ...row, daysOverdue: calendarDaysBetween(row.dueDate, today) }));
}

// --- The bytes and the ledger (issue 54, decision 0054) -------------------------------------------

export { LEDGER_FILE, type LedgerEntry, LedgerFileError, readLedgerFile } from './ledger';
export { type ScrubResult, scrubPending } from './scrub';

/** The ledger as the file beside the backups carries it. */
export function ledgerEntries(db: Executor): Promise<LedgerEntry[]> {
  return queries.listLedger(db);
}

/** Writes the ledger beside the backups (after a suppression and after every backup). */
export async function writeLedgerBeside(db: Executor, directory: string, at: Date): Promise<string> {
  await mkdir(directory, { recursive: true });
  return writeLedgerFile(directory, await queries.listLedger(db), at);
}

/** What Configuración → Respaldos says of the scrub: pending suppressions, and the last scrub. */
export function scrubState(db: Executor) {
  return queries.findScrubState(db);
}

export interface ReplayedSuppression {
  requestId: string;
  suppressedAt: string;
  /** What was done: suppressed again, or why not. */
  outcome: 'suppressed' | 'already-suppressed' | 'no-holder';
}

/**
 * A restore's replay (decision 0054): every suppression of the ledger that the restored database does
 * not record is carried out again, as 'sistema', before the server serves it. The holder is found by
 * the salted hash of their RUT (the ledger holds nothing else of them); a request the backup predates
 * is registered again under its id. Returns what was done, for the restore to print.
 */
export async function replaySuppressions(
  db: Database,
  entries: readonly LedgerEntry[],
  now: Date,
): Promise<ReplayedSuppression[]> {
  const done: ReplayedSuppression[] = [];
  for (const entry of [...entries].sort((a, b) => a.suppressedAt.localeCompare(b.suppressedAt))) {
    if (await queries.hasLedgerEntry(db, entry.requestId)) continue;
    const holders = (await queries.listUnsuppressedRuts(db)).filter((client) =>
      ledgerMatches(entry, client.rut),
    );
    if (holders.length === 0) {
      // Suppressed already (by an earlier request) or never here: the ledger remembers it all the same.
      await asSystem(db, (tx) => queries.insertReplayedLedgerEntry(tx, entry));
      done.push({ requestId: entry.requestId, suppressedAt: entry.suppressedAt, outcome: 'no-holder' });
      continue;
    }
    for (const holder of holders) {
      await asSystem(db, async (tx) => {
        const requestId = await queries.upsertReplayedRequest(tx, {
          id: holders.length === 1 ? entry.requestId : null,
          clientId: holder.id,
          holderRut: holder.rut,
          receivedDate: entry.receivedDate,
        });
        // The entry as it was (its date and hash), before the suppression would write a new one.
        await queries.insertReplayedLedgerEntry(tx, entry);
        await suppressIn(tx, requestId, { actorId: null, now, isReplay: true });
      });
    }
    done.push({ requestId: entry.requestId, suppressedAt: entry.suppressedAt, outcome: 'suppressed' });
  }
  return done;
}
