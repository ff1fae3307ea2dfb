// Imports a file on the configured database, through the same pipeline as Configuración → Importar:
//   npm run import -- <clientes|brokers|unidades|reservas> <archivo.xlsx|.csv> [--dry-run] [--sheet NOMBRE]
//     [--header-row N] [--only-valid] [--repetidas rechazar] [--as correo@administrador]
// The header row is found below a title block unless --header-row says where it is; where it is, and
// the rows skipped (title, blank, totals, footers), are printed first. Columns are matched by their
// headers and by the mapping last saved on screen, joined columns too ('Apellidos ← Apellido Paterno +
// Apellido Materno', printed). Rows repeating a key: the first imported and the others errors naming
// it, or with --repetidas rechazar all of them errors. Uses DATABASE_URL /
// DATA_DIR like the server (stop the server first when on the embedded database). The last line is
// 'N nuevos, N actualizados, N sin cambios, N con errores'.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { asc, eq } from 'drizzle-orm';
import { actingAs, SYSTEM_ACTOR } from '../src/server/db/actor';
import { openDatabase } from '../src/server/db/client';
import { requireEmbeddedDatabase } from '../src/server/db/existing-database';
import { profiles } from '../src/server/db/schema';
import { loadEnv } from '../src/server/env';
import { leaseRun } from '../src/server/features/imports/apply-lease';
import * as queries from '../src/server/features/imports/imports.queries';
import { keepRun } from '../src/server/features/imports/imports.service';
import { apply, plan } from '../src/server/features/imports/pipeline';
import { openTable } from '../src/server/features/imports/read-file';
import { cellText } from '../src/shared/domain/import-cells';
import { errorMessage } from '../src/shared/errors';
import {
  columnsOf,
  countsSentence,
  HEADER_ROW_MAX,
  IMPORT_FIELDS,
  type ImportKind,
  MAX_LISTED_SKIPPED,
  matchHeaders,
  skippedSentence,
} from '../src/shared/schemas/imports';

const KIND_NAMES: Record<string, ImportKind> = {
  clientes: 'clients',
  clients: 'clients',
  brokers: 'brokers',
  unidades: 'units',
  units: 'units',
  reservas: 'reservations',
  reservations: 'reservations',
};

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    'dry-run': { type: 'boolean', default: false },
    sheet: { type: 'string' },
    'header-row': { type: 'string' },
    'only-valid': { type: 'boolean', default: false },
    repetidas: { type: 'string' },
    as: { type: 'string' },
  },
});

const [kindName, path] = positionals;
const kind = kindName ? KIND_NAMES[kindName.toLowerCase()] : undefined;
if (!kind || !path) {
  console.error(
    'Uso: npm run import -- <clientes|brokers|unidades|reservas> <archivo> [--dry-run] [--sheet NOMBRE] [--header-row N]',
  );
  process.exit(2);
}
const headerRow = values['header-row'] === undefined ? null : Number(values['header-row']);
if (headerRow !== null && (!Number.isInteger(headerRow) || headerRow < 1 || headerRow > HEADER_ROW_MAX)) {
  console.error(errorMessage('SHEET_HEADER_ROW_RANGE', { max: HEADER_ROW_MAX }));
  process.exit(2);
}

if (values.repetidas !== undefined && values.repetidas !== 'rechazar') {
  console.error(
    '--repetidas acepta solo "rechazar" (sin la opción: se importa la primera fila de cada clave)',
  );
  process.exit(2);
}
const repeatedKeys = values.repetidas === 'rechazar' ? 'refuseAll' : 'keepFirst';

const env = loadEnv();
if (!env.DATABASE_URL) {
  try {
    requireEmbeddedDatabase(env.DATA_DIR);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}
const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
const say = (error: unknown) => (error instanceof Error ? error.message : String(error));
try {
  await database.migrate();
  const { db } = database;
  const bytes = readFileSync(path);
  const table = await openTable(bytes, { sheet: values.sheet ?? null, headerRow });
  await table.close();
  const headers = table.header.cells.map((cell) => cellText(cell));
  const mapping = matchHeaders(kind, headers, await queries.findMapping(db, kind));
  const input = {
    kind,
    bytes,
    sheetName: table.sheetName,
    headerRow: table.header.rowNumber,
    mapping,
    repeatedKeys,
  } as const;
  const now = new Date();
  console.log(
    `Encabezado en la fila ${table.header.rowNumber}${headerRow === null ? '' : ' (indicada con --header-row)'}: ${headers.filter(Boolean).join(', ')}`,
  );
  for (const field of IMPORT_FIELDS[kind]) {
    const joined = columnsOf(mapping, field.key);
    if (joined.length > 1)
      console.log(`${field.label} ← ${joined.map((index) => headers[index]).join(' + ')}`);
  }
  const outcome = await plan(db, input, now);
  for (const skipped of outcome.skipped.rows.slice(0, MAX_LISTED_SKIPPED))
    console.log(`${skippedSentence(skipped)} (omitida)`);
  if (outcome.skipped.count > MAX_LISTED_SKIPPED)
    console.log(`… y ${outcome.skipped.count - MAX_LISTED_SKIPPED} filas omitidas más`);
  for (const error of outcome.errors.slice(0, 200)) {
    console.log(
      `Fila ${error.rowNumber}, ${error.column}: ${error.reason}${error.value ? ` (${error.value})` : ''}`,
    );
  }
  if (outcome.errors.length > 200) console.log(`… y ${outcome.errors.length - 200} errores más`);
  if (values['dry-run']) {
    console.log('Revisión: no se guardó nada.');
    console.log(countsSentence(outcome.counts));
  } else if (outcome.counts.errors > 0 && !values['only-valid']) {
    // The screen's refusal, in the same words (the option is --only-valid here).
    console.log(`${errorMessage('IMPORT_HAS_ERRORS')} (--only-valid)`);
    console.log(countsSentence(outcome.counts));
    process.exitCode = 1;
  } else {
    // The author of the changes: the administrator named, or the first one.
    const [admin] = await db
      .select({ id: profiles.id, email: profiles.email })
      .from(profiles)
      .where(values.as ? eq(profiles.email, values.as.toLowerCase()) : eq(profiles.userType, 'Administrador'))
      .orderBy(asc(profiles.createdAt))
      .limit(1);
    if (!admin) throw new Error('No hay un administrador que firme la importación (use --as correo).');
    const run = await keepRun(actingAs(db, SYSTEM_ACTOR), {
      kind,
      fileName: basename(path),
      bytes,
      createdBy: admin.id,
    });
    // Held while applying, as the server does: a server's recovery leaves a live run alone.
    const lease = await leaseRun(db, run.id);
    if (!lease) throw new Error(`La importación ${run.id} ya se está aplicando.`);
    const result = await apply(
      db,
      run.id,
      input,
      { actorId: admin.id, now, onlyValidRows: values['only-valid'] ?? false },
      outcome,
    ).finally(() => lease.release());
    console.log(
      `Importación ${run.id} (${admin.email}): ${result.status === 'applied' ? 'aplicada' : 'no se guardó nada'}.`,
    );
    if (result.failure)
      console.log(errorMessage(result.failure.split(':')[0] as Parameters<typeof errorMessage>[0]));
    console.log(countsSentence(result.counts));
    if (result.status !== 'applied') process.exitCode = 1;
  }
} catch (error) {
  console.error(say(error));
  process.exitCode = 1;
} finally {
  await database.close();
}
