/**
 * The layering rules of DESIGN §1, checked on the sources (`npm test` runs
 * scripts/import-boundaries.test.ts; `npx tsx scripts/import-boundaries.ts` prints the violations):
 *
 * - `src/client` never imports `src/server`, and `src/server` never imports `src/client`;
 * - `src/shared` imports neither (only itself and packages);
 * - a server feature reaches another feature only through its `<feature>.service.ts`;
 * - a client feature reaches another feature only through its `api.ts`, its `index.ts` or its `keys.ts`
 *   (query keys alone, light enough for the shell: decision 0005);
 * - flow rows (flows, their task rows, assignees, comments, mentions, rejections) are written only
 *   by `src/server/features/workflows` (issue 29: one writer) — anywhere in src, scripts and bench
 *   but tests, which may set up a state directly.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

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

const FLOW_TABLES = [
  'flows',
  'flow_tasks',
  'flow_task_assignees',
  'flow_task_comments',
  'flow_task_comment_mentions',
  'flow_task_rejections',
];
const FLOW_TABLE_OBJECTS = [
  'flows',
  'flowTasks',
  'flowTaskAssignees',
  'flowTaskComments',
  'flowTaskCommentMentions',
  'flowTaskRejections',
];
const TABLE = `(?:${FLOW_TABLES.join('|')})`;
/** SQL that writes a flow table, a generic row writer given one, or Drizzle's builder on one. */
const FLOW_WRITES = [
  new RegExp(
    `\\b(?:insert\\s+into|update|delete\\s+from|truncate(?:\\s+table)?)\\s+"?${TABLE}"?(?![\\w.])`,
    'gi',
  ),
  new RegExp(`\\binsertRows\\(\\s*\\w+\\s*,\\s*['"]${TABLE}['"]`, 'g'),
  new RegExp(
    `\\.(?:insert|update|delete)\\(\\s*(?:schema\\.)?(?:${FLOW_TABLE_OBJECTS.join('|')})\\s*\\)`,
    'g',
  ),
];

/** Writes to flow tables outside the workflows feature, as 'path:line: the statement'. */
export function flowWriteViolations(files: readonly SourceFile[]): string[] {
  const violations: string[] = [];
  for (const file of files) {
    if (file.path.startsWith('src/server/features/workflows/')) continue;
    if (/\.test\.tsx?$/.test(file.path) || file.path.startsWith('src/server/test/')) continue;
    for (const pattern of FLOW_WRITES) {
      for (const match of file.text.matchAll(pattern)) {
        const line = file.text.slice(0, match.index).split('\n').length;
        violations.push(
          `${file.path}:${line}: '${match[0].replace(/\s+/g, ' ')}' — flow rows are written only by features/workflows`,
        );
      }
    }
  }
  return violations;
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
    ...flowWriteViolations(['src', 'scripts', 'bench'].flatMap((root) => projectSources(root))),
    ...queryNameViolations(projectSources()),
    ...onDemandViolations(projectSources()),
  ];
  for (const violation of violations) console.log(violation);
  console.log(
    violations.length === 0 ? 'Import boundaries: no violation.' : `${violations.length} violation(s).`,
  );
  process.exit(violations.length === 0 ? 0 : 1);
}
