import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// styles.ts imports Mantine's stylesheet per component instead of the whole of it. This test keeps
// that list exact: every component the app reaches (its own imports from @mantine/core, and those of
// @mantine/dates, @mantine/notifications and mantine-datatable), followed through Mantine's modules
// to the components they are built from, has its stylesheet imported, in Mantine's own order; and
// nothing else is.

const CORE = resolve('node_modules/@mantine/core');
const CORE_ESM = join(CORE, 'esm');
const STYLES_DIR = join(CORE, 'styles');
const FIRST = ['baseline', 'default-css-variables', 'global'];

function sourceFiles(dir: string, pattern: RegExp): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return sourceFiles(path, pattern);
    return pattern.test(entry) ? [path] : [];
  });
}

/** The names a source imports from '@mantine/core' (either quote, across lines). */
function coreNames(source: string): string[] {
  return [...source.matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*['"]@mantine\/core['"]/g)].flatMap(
    (match) =>
      match[1]!
        .split(',')
        .map(
          (name) =>
            name
              .trim()
              .replace(/^type\s+/, '')
              .split(/\s+as\s+/)[0]!,
        )
        .filter(Boolean),
  );
}

/** Mantine's index: exported name → the module that defines it. */
function coreExports(): Map<string, string> {
  const index = readFileSync(join(CORE_ESM, 'index.mjs'), 'utf8');
  const modules = new Map<string, string>();
  for (const match of index.matchAll(/import \{([^}]*)\} from "(\.\/[^"]+)";/g))
    for (const name of match[1]!.split(',')) {
      const [imported, local] = name.trim().split(/\s+as\s+/);
      modules.set((local ?? imported)!, join(CORE_ESM, match[2]!));
    }
  return modules;
}

/** The stylesheets (by component) that the modules reachable from `entries` use. */
function stylesheetsReached(entries: string[]): Set<string> {
  const seen = new Set<string>();
  const sheets = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(/(?:from|import) "(\.{1,2}\/[^"]+\.mjs)"/g)) {
      const target = resolve(dirname(file), match[1]!);
      const sheet = /([^/]+)\.module\.mjs$/.exec(target)?.[1];
      if (sheet) sheets.add(sheet);
      else visit(target);
    }
  };
  for (const entry of entries) visit(entry);
  return sheets;
}

function neededStylesheets(): string[] {
  const names = new Set<string>();
  const sources = [
    ...sourceFiles('src/client', /(?<!\.test)\.tsx?$/),
    ...sourceFiles('node_modules/@mantine/dates/esm', /\.mjs$/),
    ...sourceFiles('node_modules/@mantine/notifications/esm', /\.mjs$/),
    'node_modules/mantine-datatable/dist/index.mjs',
  ];
  for (const file of sources) for (const name of coreNames(readFileSync(file, 'utf8'))) names.add(name);
  const exports = coreExports();
  const entries = [...names].flatMap((name) => (exports.has(name) ? [exports.get(name)!] : []));
  return [...stylesheetsReached(entries)].filter((sheet) => existsSync(join(STYLES_DIR, `${sheet}.css`)));
}

/** Mantine's own order: where each component's stylesheet starts inside the whole styles.css. */
function mantineOrder(sheet: string): number {
  const whole = readFileSync(join(CORE, 'styles.css'), 'utf8');
  const head = readFileSync(join(STYLES_DIR, `${sheet}.css`), 'utf8')
    .trim()
    .slice(0, 200);
  return whole.indexOf(head);
}

const imported = [
  ...readFileSync('src/client/app/styles.ts', 'utf8').matchAll(
    /import '@mantine\/core\/styles\/([^']+)\.css';/g,
  ),
].map((match) => match[1]!);

describe("Mantine's stylesheet, per component", () => {
  it('imports the stylesheet of every component the app reaches, and no other', () => {
    const needed = neededStylesheets();
    const components = imported.filter((sheet) => !FIRST.includes(sheet));
    expect(
      needed.filter((sheet) => !components.includes(sheet)),
      'add to src/client/app/styles.ts',
    ).toEqual([]);
    expect(
      components.filter((sheet) => !needed.includes(sheet)),
      'no longer used: remove from src/client/app/styles.ts',
    ).toEqual([]);
  });

  it("keeps Mantine's order: baseline, variables and global first, then the components as in styles.css", () => {
    expect(imported.slice(0, 3)).toEqual(FIRST);
    const positions = imported.map((sheet) => ({ sheet, at: mantineOrder(sheet) }));
    expect(positions.every(({ at }) => at >= 0)).toBe(true);
    const sorted = [...positions].sort((a, b) => a.at - b.at).map(({ sheet }) => sheet);
    expect(imported).toEqual(sorted);
  });

  it("has @mantine/dates' stylesheet imported wherever a date picker is", () => {
    const pickers = sourceFiles('src/client', /(?<!\.test)\.tsx?$/).filter((file) => {
      const source = readFileSync(file, 'utf8');
      const names = [...source.matchAll(/import\s*\{([^}]*)\}\s*from\s*'@mantine\/dates'/g)].flatMap(
        (match) => match[1]!.split(',').map((name) => name.trim().replace(/^type\s+/, '')),
      );
      return names.some((name) => name && !/^(DatesProvider|type\b)/.test(name) && !name.endsWith('Props'));
    });
    expect(pickers.length).toBeGreaterThan(0);
    const without = pickers.filter(
      (file) => !readFileSync(file, 'utf8').includes("import '@mantine/dates/styles.css';"),
    );
    expect(without, "import '@mantine/dates/styles.css' beside the picker").toEqual([]);
  });
});
