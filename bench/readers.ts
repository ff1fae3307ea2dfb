// The readers' benchmark (decision 0049): a 100,000-row client workbook — written by ExcelJS with
// shared strings, and the same rows as openpyxl writes them (inline strings, absolute part names) —
// read whole by exceljs's streaming reader (the import's reader before) and by ours, each in a
// process of its own: the time, the process's peak RSS growth, and the longest stall of its event
// loop. Run alone: `npx tsx bench/readers.ts` (each measure: `npx tsx bench/readers.ts exceljs|ours FILE`).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { openTable } from '../src/server/features/imports/read-file';
import { columnLetter } from '../src/server/readers/cells';
import { escapeXml, minimalWorkbook } from '../src/server/test/corpus/workbooks';

const ROWS = Number(process.env.READERS_BENCH_ROWS ?? 100_000);
const HEADER = ['RUT', 'Nombres', 'Apellidos', 'Fecha de nacimiento', 'Teléfono', 'Correo electrónico'];
const row = (n: number) => [
  `${n}.345.678-5`,
  `Nombre ${n % 997}`,
  `Apellido ${n}`,
  `${String((n % 28) + 1).padStart(2, '0')}/0${(n % 9) + 1}/1980`,
  `+56 9 ${String(n).padStart(8, '0')}`,
  `cliente${n}@example.cl`,
];

/** Inline strings with their cell references, as openpyxl writes them. */
function openpyxlSheet(rows: readonly (readonly string[])[]): string {
  const body = rows.map(
    (cells, index) =>
      `<row r="${index + 1}">${cells
        .map(
          (text, column) =>
            `<c r="${columnLetter(column)}${index + 1}" t="inlineStr"><is><t>${escapeXml(text)}</t></is></c>`,
        )
        .join('')}</row>`,
  );
  return `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${body.join('')}</sheetData></worksheet>`;
}

async function measure(reader: string, path: string) {
  const bytes = readFileSync(path);
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const started = performance.now();
  let rows = 0;
  if (reader === 'ours') {
    const table = await openTable(bytes);
    for await (const _ of table.rows) rows += 1;
  } else {
    const workbook = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([bytes]), {
      sharedStrings: 'cache',
      styles: 'cache',
      hyperlinks: 'ignore',
      worksheets: 'emit',
      entries: 'ignore',
    });
    for await (const sheet of workbook) {
      for await (const _ of sheet as unknown as AsyncIterable<unknown>) rows += 1;
    }
    rows -= 1;
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  delay.disable();
  console.log(
    JSON.stringify({
      reader,
      rows,
      seconds: Number(seconds.toFixed(2)),
      rssGrowthMb: Math.round((peak - rssBefore) / 1024 / 1024),
      longestStallMs: Math.round(delay.max / 1e6),
    }),
  );
}

async function main() {
  const dir = join('.tmp', 'bench-readers');
  mkdirSync(dir, { recursive: true });
  const shared = join(dir, 'exceljs.xlsx');
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Clientes');
  sheet.addRow(HEADER);
  for (let n = 1; n <= ROWS; n++) sheet.addRow(row(n));
  await book.xlsx.writeFile(shared);
  const inline = join(dir, 'openpyxl-like.xlsx');
  writeFileSync(
    inline,
    minimalWorkbook({
      sheetXml: openpyxlSheet([HEADER, ...Array.from({ length: ROWS }, (_, n) => row(n + 1))]),
    }),
  );
  console.log(
    `${ROWS} rows; load average ${loadavg()
      .map((load) => load.toFixed(1))
      .join(' ')}`,
  );
  for (const [file, readers] of [
    [shared, ['exceljs', 'ours']],
    [inline, ['exceljs', 'ours']],
  ] as const) {
    for (const reader of readers) {
      console.log(file);
      execFileSync('npx', ['tsx', 'bench/readers.ts', reader, file], { stdio: 'inherit' });
    }
  }
}

const [reader, path] = process.argv.slice(2);
if (reader && path) await measure(reader, path);
else await main();
