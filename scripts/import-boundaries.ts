/**
 * The layering rules of DESIGN §1, checked on the sources (`npm test` runs
 * scripts/import-boundaries.test.ts; `npx tsx scripts/import-boundaries.ts` prints the violations):
 *
 * - `src/client` never imports `src/server`, and `src/server` never imports `src/client`;
 * - `src/shared` imports neither (only itself and packages);
 * - a server feature reaches another feature only through its `<feature>.service.ts`;
 * - a client feature reaches another feature only through its `api.ts`, its `index.ts` or its `keys.ts`
 *   (query keys alone, light enough for the shell: decision 0005);
 * - every table is written only by its owning feature (`src/server/db/owners.ts`, decision 0056):
 *   others call the owner's service — anywhere in src, scripts and bench but tests, which may set up
 *   a state directly, and the dataset writers (demo, journeys, benches), which may write any table
 *   but the flow rows (issue 29: only the workflow engine writes those).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { DATASET_WRITERS, TABLE_OWNERS } from '../src/server/db/owners';

export interface SourceFile {
  /** Path relative to the project root, with forward slashes ('src/server/app.ts'). */
  path: string;
  text: string;
}

const IMPORT = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g;

function specifiersOf(text: string): string[] {
  return [...text.matchAll(IMPORT)].map((match) => match[1]!);
}

function resolveRelative(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  return relative('.', resolve(dirname(from), specifier)).replaceAll('\\', '/');
}

/** 'src/server/features/<name>/…' → name (or null). */
function featureOf(path: string, side: 'server' | 'client'): string | null {
  const match = path.match(new RegExp(`^src/${side}/features/([^/]+)/`));
  return match?.[1] ?? null;
}

export function boundaryViolations(files: readonly SourceFile[]): string[] {
  const violations: string[] = [];
  for (const file of files) {
    for (const specifier of specifiersOf(file.text)) {
      const target = resolveRelative(file.path, specifier);
      if (target === null) continue;
      const say = (rule: string) => violations.push(`${file.path} imports ${specifier}: ${rule}`);
      if (file.path.startsWith('src/client/') && target.startsWith('src/server/'))
        say('the client never imports the server');
      if (file.path.startsWith('src/server/') && target.startsWith('src/client/'))
        say('the server never imports the client');
      if (file.path.startsWith('src/shared/') && !target.startsWith('src/shared/'))
        say('shared imports only shared');
      for (const side of ['server', 'client'] as const) {
        const from = featureOf(file.path, side);
        const to = featureOf(`${target}/`, side) ?? featureOf(target, side);
        if (!from || !to || from === to) continue;
        const entry =
          target.slice(`src/${side}/features/${to}/`.length).replace(/\.(ts|tsx)$/, '') || 'index';
        const allowed = side === 'server' ? [`${to}.service`] : ['api', 'index', 'keys'];
        if (!allowed.includes(entry)) {
          say(
            `feature ${from} reaches feature ${to} only through ${allowed.map((name) => `${name}.ts`).join(' or ')}`,
          );
        }
      }
    }
  }
  return violations;
}

/** The tables of the schema with the name of their Drizzle object ('clients' ← `clients`, 'flow_tasks' ← `flowTasks`). */
export function schemaTables(schemaText: string): { name: string; object: string }[] {
  return [...schemaText.matchAll(/export const (\w+) = pgTable\(\s*'(\w+)'/g)].map((match) => ({
    object: match[1]!,
    name: match[2]!,
  }));
}

/** SQL that writes a table, a generic row writer given one, or Drizzle's builder on one: the table's name. */
function writesOf(text: string, tables: readonly { name: string; object: string }[]) {
  const names = tables.map((table) => table.name).join('|');
  const objects = tables.map((table) => table.object).join('|');
  const byObject = new Map(tables.map((table) => [table.object, table.name]));
  const patterns: { pattern: RegExp; table: (match: RegExpMatchArray) => string }[] = [
    {
      pattern: new RegExp(
        `\\b(?:insert\\s+into|update|delete\\s+from|truncate(?:\\s+table)?)\\s+"?(${names})"?(?![\\w.])`,
        'gi',
      ),
      table: (match) => match[1]!.toLowerCase(),
    },
    {
      pattern: new RegExp(
        `\\b(?:insertRows|insertRowsAsJson)\\(\\s*\\w+\\s*,\\s*(?:['"](${names})['"]|(?:schema\\.)?(${objects})\\b)`,
        'g',
      ),
      table: (match) => match[1] ?? byObject.get(match[2]!)!,
    },
    {
      pattern: new RegExp(`\\.(?:insert|update|delete)\\(\\s*(?:schema\\.)?(${objects})\\s*\\)`, 'g'),
      table: (match) => byObject.get(match[1]!)!,
    },
    {
      // A table interpolated into SQL: its Drizzle object, or a name chosen at run time (DYNAMIC).
      pattern: /\b(?:insert\s+into|update|delete\s+from)\s+\$\{\s*([^}]+?)\s*\}/gi,
      table: (match) => byObject.get(match[1]!) ?? DYNAMIC,
    },
  ];
  return patterns.flatMap(({ pattern, table }) =>
    [...text.matchAll(pattern)].map((match) => ({
      table: table(match),
      index: match.index!,
      text: match[0],
    })),
  );
}

/** A write whose table is chosen at run time: only the generic helpers of src/server/db may write so. */
const DYNAMIC = '(a table chosen at run time)';

const FLOW_TABLES = new Set(
  Object.entries(TABLE_OWNERS)
    .filter(([name, owner]) => owner === 'workflows' && name.startsWith('flow'))
    .map(([name]) => name),
);

/**
 * Writes to a table outside its owning feature (`src/server/db/owners.ts`), as 'path:line: the
 * statement — why'. Tests may set up a state directly; the dataset writers (demo, journeys, benches)
 * may write any table but the flow rows, which only features/workflows writes (issue 29).
 */
export function ownershipViolations(
  files: readonly SourceFile[],
  tables: readonly { name: string; object: string }[],
  owners: Record<string, string> = TABLE_OWNERS,
): string[] {
  const violations: string[] = [];
  for (const file of files) {
    if (/\.test\.tsx?$/.test(file.path) || file.path.startsWith('src/server/test/')) continue;
    const feature = featureOf(file.path, 'server');
    const seeds = DATASET_WRITERS.some((writer) => file.path.startsWith(writer));
    for (const write of writesOf(file.text, tables)) {
      if (write.table === DYNAMIC) {
        if (seeds || file.path.startsWith('src/server/db/')) continue;
        const line = file.text.slice(0, write.index).split('\n').length;
        violations.push(
          `${file.path}:${line}: '${write.text.replace(/\s+/g, ' ')}' — a write to a table named at run time: call its owner's service`,
        );
        continue;
      }
      const owner = owners[write.table];
      if (owner === undefined) {
        violations.push(`${file.path}: table ${write.table} has no owner in src/server/db/owners.ts`);
        continue;
      }
      if (owner === feature) continue;
      if (seeds && !FLOW_TABLES.has(write.table)) continue;
      const line = file.text.slice(0, write.index).split('\n').length;
      violations.push(
        `${file.path}:${line}: '${write.text.replace(/\s+/g, ' ')}' — ${write.table} is written only by features/${owner} (its service's …In functions)`,
      );
    }
  }
  return violations;
}

/** The schema's tables, read from src/server/db/schema.ts. */
export function projectTables(): { name: string; object: string }[] {
  return schemaTables(readFileSync('src/server/db/schema.ts', 'utf8'));
}

/** The verbs of a query function (docs/code-style.md, 'Service functions'). */
const QUERY_NAME =
  /^(?:(?:find|list|insert|update|delete|lock|claim|count|is|has|set|upsert|replace|select)[A-Z]\w*|\w+Of(?:[A-Z]\w*)?|\w+(?:Sql|Exists|Taken))$/;
/** The one exception the guide names: a command's changes, written set-based. */
const QUERY_NAME_EXCEPTIONS = new Set(['applyChanges']);

/** Exported functions of `*.queries.ts` named outside the guide's verbs, as 'path: name'. */
export function queryNameViolations(files: readonly SourceFile[]): string[] {
  const violations: string[] = [];
  for (const file of files) {
    if (!file.path.endsWith('.queries.ts')) continue;
    for (const match of file.text.matchAll(/^export (?:async )?function (\w+)/gm)) {
      const name = match[1]!;
      if (!QUERY_NAME.test(name) && !QUERY_NAME_EXCEPTIONS.has(name)) {
        violations.push(`${file.path}: ${name} — a query's name starts with a verb of docs/code-style.md`);
      }
    }
  }
  return violations;
}

/**
 * Packages the server loads the first time they are needed, through their loader, never with the
 * server's own modules: exceljs was the largest share of every start (src/server/exports/exceljs.ts).
 * Elsewhere in the server they are imported as types only.
 */
const LOADED_ON_DEMAND: Record<string, string> = { exceljs: 'src/server/exports/exceljs.ts' };
const VALUE_IMPORT = /^import\s+(?!type\s)[^;]*?\bfrom\s+['"]([^'"]+)['"]/gm;

/** Value imports of an on-demand package outside its loader (tests aside), as 'path: package'. */
export function onDemandViolations(files: readonly SourceFile[]): string[] {
  const violations: string[] = [];
  for (const file of files) {
    if (!file.path.startsWith('src/server/') || file.path.startsWith('src/server/test/')) continue;
    if (/\.test\.tsx?$/.test(file.path)) continue;
    for (const match of file.text.matchAll(VALUE_IMPORT)) {
      const loader = LOADED_ON_DEMAND[match[1]!];
      if (loader && file.path !== loader)
        violations.push(
          `${file.path}: ${match[1]} — loaded on demand through ${loader} (a type import is fine)`,
        );
    }
  }
  return violations;
}

/** Every .ts/.tsx file under src, read from disk. */
export function projectSources(root = 'src'): SourceFile[] {
  const files: SourceFile[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(ts|tsx)$/.test(entry.name))
        files.push({ path: path.replaceAll('\\', '/'), text: readFileSync(path, 'utf8') });
    }
  };
  walk(root);
  return files;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const violations = [
    ...boundaryViolations(projectSources()),
    ...ownershipViolations(
      ['src', 'scripts', 'bench'].flatMap((root) => projectSources(root)),
      projectTables(),
    ),
    ...queryNameViolations(projectSources()),
    ...onDemandViolations(projectSources()),
  ];
  for (const violation of violations) console.log(violation);
  console.log(
    violations.length === 0 ? 'Import boundaries: no violation.' : `${violations.length} violation(s).`,
  );
  process.exit(violations.length === 0 ? 0 : 1);
}
