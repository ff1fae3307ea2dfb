import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import {
  excelWorkbook,
  googleSheetsWorkbook,
  inlineSheet,
  minimalWorkbook,
  prefixedWorkbook,
} from './workbooks';
import { repeatedDeflate, writeZip } from './zip-writer';

/**
 * The corpus of hostile and real-world files (DESIGN §20, decision 0049), walked through every door
 * by `doors.test.ts`. Small files are committed in `hostile/` (written by `write-hostile.ts` from the
 * makers below, and held equal to them by the test) and `exporters/` (made by the real programs,
 * `make-exporters.sh`); big ones — 200,001 rows, gigabyte zip bombs, 10 MB cells — are made at test
 * time. Each file says what each door must do with it: refuse it with a Spanish 4xx, or read it.
 */

export type Door = 'imports' | 'ufValues' | 'priceList' | 'invoiceXml' | 'documents' | 'images';
export type Expectation = 'refused' | 'read';

export interface CorpusFile {
  /** The name a user would upload it as. */
  name: string;
  about: string;
  /** Made at test time, never committed. */
  big?: true;
  make(): Buffer | Promise<Buffer>;
  doors: Partial<Record<Door, Expectation>>;
}

const HERE = dirname(fileURLToPath(import.meta.url));
const MB = 1024 * 1024;
const TABLE_REFUSED = { imports: 'refused', ufValues: 'refused', priceList: 'refused' } as const;
/** What a table door does with a file that is not a table at all. */
const NOT_A_TABLE = { ...TABLE_REFUSED, invoiceXml: 'refused' } as const;
const CSV_HEADER = 'RUT;Nombres;Apellidos;Fecha de nacimiento';

const pdf = () =>
  Buffer.from(
    '%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [3 0 R] /Count 1>> endobj\n3 0 obj <</Type /Page /Parent 2 0 R /MediaBox [0 0 200 200]>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n',
    'latin1',
  );
const png = () =>
  sharp({ create: { width: 8, height: 8, channels: 3, background: '#336699' } })
    .png()
    .toBuffer();

/** A workbook whose shared strings inflate to `inflated` bytes of `<si>` while its headers may say otherwise. */
function sharedStringsBomb(inflatedMegabytes: number, declaredSize?: number): Buffer {
  const filler = `<si><t>${'A'.repeat(1000)}</t></si>`.repeat(Math.floor(MB / 1016));
  const strings = repeatedDeflate(
    '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">',
    filler,
    inflatedMegabytes,
    '</sst>',
  );
  return minimalWorkbook({
    sheetXml:
      '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row></sheetData></worksheet>',
    sharedStrings: strings,
    sharedStringsDeclaredSize: declaredSize ?? strings.inflatedSize,
  });
}

/** A Word document whose body inflates to `inflatedMegabytes`, its headers honest or not. */
function documentBomb(inflatedMegabytes: number, declaredSize?: number): Buffer {
  const body = repeatedDeflate(
    '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>',
    `<w:p><w:r><w:t>${'A'.repeat(MB - 40)}</w:t></w:r></w:p>`,
    inflatedMegabytes,
    '</w:body></w:document>',
  );
  return writeZip([
    {
      name: '[Content_Types].xml',
      data: '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    },
    {
      name: '_rels/.rels',
      data: '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    },
    { name: 'word/document.xml', data: body, declaredSize: declaredSize ?? body.inflatedSize },
  ]);
}

/** A CSV of the clients' header and `rows` rows of `row(n)`. */
const csv = (rows: number, row: (n: number) => string) => {
  const lines = [CSV_HEADER];
  for (let n = 1; n <= rows; n++) lines.push(row(n));
  return Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8');
};

/** A sheet of the clients' header and `rows` rows, its XML deflated as one part. */
function bigSheet(rows: number, row: (n: number) => string): Buffer {
  const parts = [`<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>`];
  parts.push(
    `<row r="1">${CSV_HEADER.split(';')
      .map((text) => `<c t="inlineStr"><is><t>${text}</t></is></c>`)
      .join('')}</row>`,
  );
  for (let n = 1; n <= rows; n++) parts.push(`<row r="${n + 1}">${row(n)}</row>`);
  parts.push('</sheetData></worksheet>');
  return minimalWorkbook({ sheetXml: parts.join('') });
}

/** The files the real programs made (`exporters/`, `make-exporters.sh`). */
const EXPORTED_FILES = [
  ['openpyxl-clientes.xlsx', 'openpyxl 3.0.9: absolute part names, inline strings, a title block, totals'],
  ['pandas-clientes.xlsx', 'pandas 1.5.3 through openpyxl: dates as datetimes'],
  ['libreoffice-clientes.xlsx', 'LibreOffice 7.4 Calc: shared strings, a title block, totals'],
  ['libreoffice-clientes-1252.csv', "LibreOffice 7.4 (en-US dates): Windows-1252, ';', quoted text"],
  ['clientes-titulo.csv', 'the UTF-8 CSV LibreOffice converted'],
] as const;
const EXPORTED = new Set<string>(EXPORTED_FILES.map(([name]) => name));

const DTE_HEAD = '<?xml version="1.0" encoding="ISO-8859-1"?>\n';
const KB256 = 256 * 1024;

export const CORPUS: readonly CorpusFile[] = [
  // --- Zip containers -----------------------------------------------------------------------------
  {
    name: 'bomba-honesta.xlsx',
    about: 'shared strings inflating to 1 GB, the headers saying so (ratio ~1,000:1)',
    big: true,
    make: () => sharedStringsBomb(1024),
    doors: { ...TABLE_REFUSED, documents: 'refused' },
  },
  {
    name: 'bomba-mentirosa.xlsx',
    about: 'issue 52: 1.6 GB of shared strings declared as 365 MB',
    big: true,
    make: () => sharedStringsBomb(1600, 365 * MB),
    doors: { ...TABLE_REFUSED, documents: 'refused' },
  },
  {
    name: 'bomba-mentirosa-pequena.xlsx',
    about: '1.6 GB of shared strings declared as 3 MB: only the bytes really inflated can tell',
    big: true,
    make: () => sharedStringsBomb(1600, 3 * MB),
    doors: { ...TABLE_REFUSED, documents: 'refused' },
  },
  {
    name: 'bomba-honesta.docx',
    about: 'a Word document inflating to 1 GB, declared',
    big: true,
    make: () => documentBomb(1024),
    doors: { documents: 'refused', ...TABLE_REFUSED },
  },
  {
    name: 'bomba-mentirosa.docx',
    about: 'a Word document inflating to 1 GB, declared as 4 KB',
    big: true,
    make: () => documentBomb(1024, 4096),
    doors: { documents: 'refused', ...TABLE_REFUSED },
  },
  {
    name: 'workbook-mas-grande-que-lo-declarado.xlsx',
    about:
      'issue 52: xl/workbook.xml inflating past its declared size (2 MB of comments, 200 bytes declared)',
    make: () =>
      minimalWorkbook({
        workbookXml: `<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">${'<!-- relleno -->'.repeat(131_072)}<sheets><sheet name="Clientes" sheetId="1" r:id="rId1"/></sheets></workbook>`,
        workbookDeclaredSize: 200,
        sheetXml: inlineSheet([CSV_HEADER.split(';'), ['12.345.678-5', 'Ana', 'Soto', '01/02/1980']]),
      }),
    doors: { imports: 'read', ufValues: 'refused', priceList: 'refused' },
  },
  {
    name: 'entidades-en-la-hoja.xlsx',
    about: 'billion laughs in a worksheet: a DOCTYPE with nested entities',
    make: () =>
      minimalWorkbook({
        sheetXml: `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">${Array.from(
          { length: 9 },
          (_, n) => `<!ENTITY lol${n + 1} "${`&lol${n || ''};`.repeat(10)}">`,
        ).join(
          '',
        )}]><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c t="inlineStr"><is><t>&lol9;</t></is></c></row></sheetData></worksheet>`,
      }),
    doors: TABLE_REFUSED,
  },
  {
    name: 'xxe-en-textos.xlsx',
    about: 'XXE in the shared strings: an external entity naming /etc/passwd',
    make: () =>
      minimalWorkbook({
        sheetXml:
          '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c t="s"><v>0</v></c><c t="s"><v>0</v></c></row></sheetData></worksheet>',
        sharedStrings:
          '<?xml version="1.0"?><!DOCTYPE sst [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>&xxe;</t></si></sst>',
      }),
    doors: TABLE_REFUSED,
  },
  {
    name: 'anidado.xlsx',
    about: 'a worksheet nesting 200,000 elements (no recursion may follow it)',
    make: () =>
      minimalWorkbook({
        sheetXml: `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${'<x>'.repeat(200_000)}${'</x>'.repeat(200_000)}</sheetData></worksheet>`,
      }),
    doors: TABLE_REFUSED,
  },
  {
    name: 'cortado.xlsx',
    about: 'an Excel workbook cut in half',
    make: () => {
      const whole = excelWorkbook();
      return whole.subarray(0, Math.floor(whole.length / 2));
    },
    doors: { ...TABLE_REFUSED, documents: 'refused' },
  },
  {
    name: 'celda-10mb.xlsx',
    about: 'a 10 MB inline string in one cell',
    big: true,
    make: () =>
      minimalWorkbook({ sheetXml: inlineSheet([CSV_HEADER.split(';'), ['1', 'x'.repeat(10 * MB)]]) }),
    doors: TABLE_REFUSED,
  },
  {
    name: 'dos-millones-de-textos.xlsx',
    about: '2,000,001 distinct shared strings (past the bound on their count)',
    big: true,
    make: () => {
      const si = Array.from({ length: 2_000_001 }, (_, n) => `<si><t>${n}</t></si>`).join('');
      return minimalWorkbook({
        sheetXml:
          '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c t="s"><v>0</v></c></row></sheetData></worksheet>',
        sharedStrings: `<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">${si}</sst>`,
      });
    },
    doors: TABLE_REFUSED,
  },
  {
    name: '200001-filas.xlsx',
    about: '200,001 data rows (one past the limit) as inline strings',
    big: true,
    make: () =>
      bigSheet(
        200_001,
        (n) =>
          `<c t="inlineStr"><is><t>${n}</t></is></c><c t="inlineStr"><is><t>Ana</t></is></c><c t="inlineStr"><is><t>Soto</t></is></c><c t="inlineStr"><is><t>01/02/1980</t></is></c>`,
      ),
    doors: TABLE_REFUSED,
  },
  // --- CSV -----------------------------------------------------------------------------------------
  {
    name: '200001-filas.csv',
    about: '200,001 data rows (one past the limit)',
    big: true,
    make: () => csv(200_001, (n) => `${n};Ana;Soto;01/02/1980`),
    doors: TABLE_REFUSED,
  },
  {
    name: 'celda-10mb.csv',
    about: 'issue 52: one 10 MB cell, quoted (it stalled the server 4.4 s)',
    big: true,
    make: () => csv(1, () => `12.345.678-5;"${'x'.repeat(10 * MB)}";Soto;01/02/1980`),
    doors: TABLE_REFUSED,
  },
  {
    name: 'celda-10mb-sin-comillas.csv',
    about: 'one 10 MB cell without quotes nor line break',
    big: true,
    make: () => csv(1, () => `12.345.678-5;${'x'.repeat(10 * MB)}`),
    doors: TABLE_REFUSED,
  },
  {
    name: 'nul-al-inicio.csv',
    about: 'a NUL byte in the first line: binary, not text',
    make: () => Buffer.from(`${CSV_HEADER}\r\n12.345.678-5;A\u0000na;Soto;01/02/1980\r\n`, 'latin1'),
    doors: NOT_A_TABLE,
  },
  {
    name: 'nul-tarde.csv',
    about: 'a NUL byte after the first 64 KB',
    make: () =>
      Buffer.concat([
        csv(3_000, (n) => `${n};Ana;Soto;01/02/1980`),
        Buffer.from('99;A\u0000na;Soto;01/02/1980\r\n', 'latin1'),
      ]),
    doors: TABLE_REFUSED,
  },
  {
    name: 'caracter-de-control.csv',
    about: 'a BEL (U+0007) inside a name',
    make: () => csv(1, () => '12.345.678-5;Ana\u0007;Soto;01/02/1980'),
    doors: TABLE_REFUSED,
  },
  {
    name: 'windows-1252.csv',
    about: 'what Chilean Excel saves: Windows-1252 with accents and ñ',
    make: () => Buffer.from(`${CSV_HEADER}\r\n12.345.678-5;José Ñandú;Núñez Peña;01/02/1980\r\n`, 'latin1'),
    doors: { imports: 'read' },
  },
  {
    name: 'utf8-invalido.csv',
    about: 'UTF-8 text with one stray byte: read whole as Windows-1252',
    make: () =>
      Buffer.concat([
        Buffer.from(`${CSV_HEADER}\r\n12.345.678-5;José;Núñez;01/02/1980\r\n`, 'utf8'),
        Buffer.from([0x39, 0x3b, 0xe9, 0x3b, 0x78, 0x3b, 0x0d, 0x0a]),
      ]),
    doors: { imports: 'read' },
  },
  {
    name: 'formulas.csv',
    about: 'cells that spreadsheets would run as formulas: kept as text, never evaluated',
    make: () =>
      csv(
        1,
        () =>
          '12.345.678-5;"=HYPERLINK(""http://example.com"",""clic"")";+56 9 1234 5678 @SUM(A1);01/02/1980',
      ),
    doors: { imports: 'read' },
  },
  {
    name: 'nombres-bidi.csv',
    about: "bidirectional overrides in names ('Romero\\u202e& Asociados'): the reader hands them on",
    make: () => csv(1, () => '12.345.678-5;Romero\u202e& Asociados;\u2067Soto\u2069;01/02/1980'),
    doors: { imports: 'read' },
  },
  {
    name: 'demasiadas-columnas.csv',
    about: '250 filled columns',
    make: () =>
      Buffer.from(
        `${Array.from({ length: 250 }, (_, n) => `Columna ${n + 1}`).join(';')}\r\n${Array.from({ length: 250 }, () => 'x').join(';')}\r\n`,
      ),
    doors: TABLE_REFUSED,
  },
  // --- Files that lie about their type -------------------------------------------------------------
  {
    name: 'planilla.xlsx',
    about: 'a PDF named .xlsx',
    make: pdf,
    doors: { ...NOT_A_TABLE, documents: 'read', images: 'refused' },
  },
  {
    name: 'imagen.csv',
    about: 'a PNG named .csv',
    make: png,
    doors: { ...NOT_A_TABLE, documents: 'read', images: 'read' },
  },
  {
    name: 'factura.pdf',
    about: 'HTML with a script, named .pdf',
    make: () => Buffer.from('<!DOCTYPE html><html><body><script>alert(1)</script></body></html>'),
    doors: { ...NOT_A_TABLE, documents: 'refused', images: 'refused' },
  },
  {
    name: 'programa.pdf',
    about: 'an executable (MZ header) named .pdf',
    make: () => Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'), Buffer.alloc(512)]),
    doors: { ...NOT_A_TABLE, documents: 'refused', images: 'refused' },
  },
  {
    name: 'logo.png',
    about: 'an SVG named .png (SVG is never taken: it runs scripts)',
    make: () =>
      Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script><rect width="8" height="8"/></svg>',
      ),
    doors: { ...NOT_A_TABLE, documents: 'refused', images: 'refused' },
  },
  {
    name: 'foto.jpg',
    about: 'a PNG named .jpg (judged by its bytes: taken as the PNG it is)',
    make: png,
    doors: { images: 'read', documents: 'read' },
  },
  {
    name: 'pixeles.png',
    about: 'a PNG claiming 50,000 × 50,000 pixels (a decompression bomb for an image decoder)',
    make: async () => {
      const bytes = Buffer.from(await png());
      bytes.writeUInt32BE(50_000, 16);
      bytes.writeUInt32BE(50_000, 20);
      bytes.writeUInt32BE(crc32(bytes.subarray(12, 29)), 29);
      return bytes;
    },
    doors: { images: 'refused' },
  },
  {
    name: 'antiguo.xls',
    about: 'an Excel 97-2003 file (OLE2): not a workbook the import reads',
    make: () => {
      const bytes = Buffer.alloc(1536);
      Buffer.from('d0cf11e0a1b11ae1', 'hex').copy(bytes, 0);
      return bytes;
    },
    doors: NOT_A_TABLE,
  },
  // --- The broker's invoice XML --------------------------------------------------------------------
  {
    name: 'comentarios-abiertos.xml',
    about: "issue 52: '<DTE>' then '<!--' repeated to 256 KB (it froze the server 11–27 s)",
    make: () => Buffer.from(`<DTE>${'<!--'.repeat(KB256 / 4 - 2)}`, 'latin1'),
    doors: { invoiceXml: 'refused', ...TABLE_REFUSED },
  },
  {
    name: 'documentos-abiertos.xml',
    about: "issue 52: thousands of unclosed '<Documento>'",
    make: () => Buffer.from(`<DTE>${'<Documento>'.repeat(Math.floor(KB256 / 11) - 1)}`, 'latin1'),
    doors: { invoiceXml: 'refused', ...TABLE_REFUSED },
  },
  {
    name: 'referencia-fuera-de-unicode.xml',
    about: 'issue 52: a character reference beyond U+10FFFF (it answered 500)',
    make: () =>
      Buffer.from(
        `${DTE_HEAD}<DTE><Documento><Encabezado><IdDoc><TipoDTE>&#x110000;</TipoDTE></IdDoc></Encabezado></Documento></DTE>`,
        'latin1',
      ),
    doors: { invoiceXml: 'refused' },
  },
  {
    name: 'xxe.xml',
    about: 'an external entity naming /etc/passwd',
    make: () =>
      Buffer.from(
        `${DTE_HEAD}<!DOCTYPE DTE [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><DTE><Documento>&xxe;</Documento></DTE>`,
        'latin1',
      ),
    doors: { invoiceXml: 'refused', ...TABLE_REFUSED },
  },
  {
    name: 'mil-millones-de-risas.xml',
    about: 'billion laughs: ten levels of entities of ten',
    make: () =>
      Buffer.from(
        `${DTE_HEAD}<!DOCTYPE DTE [<!ENTITY lol0 "lol">${Array.from(
          { length: 9 },
          (_, n) => `<!ENTITY lol${n + 1} "${`&lol${n};`.repeat(10)}">`,
        ).join('')}]><DTE>&lol9;</DTE>`,
        'latin1',
      ),
    doors: { invoiceXml: 'refused' },
  },
  {
    name: 'anidado.xml',
    about: '20,000 nested elements inside a DTE',
    make: () => Buffer.from(`<DTE>${'<a>'.repeat(20_000)}${'</a>'.repeat(20_000)}</DTE>`, 'latin1'),
    doors: { invoiceXml: 'refused' },
  },
  {
    name: 'nul.xml',
    about: 'a NUL byte inside the folio',
    make: () =>
      Buffer.from(
        `${DTE_HEAD}<DTE><Documento><Encabezado><IdDoc><Folio>12\u000034</Folio></IdDoc></Encabezado></Documento></DTE>`,
        'latin1',
      ),
    doors: { invoiceXml: 'refused' },
  },
  // --- Real exporters ------------------------------------------------------------------------------
  ...EXPORTED_FILES.map(
    ([name, about]): CorpusFile => ({
      name,
      about,
      make: () => readFileSync(join(HERE, 'exporters', name)),
      doors: { imports: 'read', documents: name.endsWith('.xlsx') ? 'read' : 'refused' },
    }),
  ),
  {
    name: 'excel-clientes.xlsx',
    about: "built to Excel's structure (see workbooks.ts): rich text, phonetic guides, formulas, errors",
    make: () => excelWorkbook(),
    doors: { imports: 'read', documents: 'read' },
  },
  {
    name: 'excel-1904.xlsx',
    about: "Excel for Mac's 1904 date system",
    make: () => excelWorkbook({ date1904: true }),
    doors: { imports: 'read' },
  },
  {
    name: 'google-sheets.xlsx',
    about: "built to Google Sheets' structure: no dimension, custom date format, package parts last",
    make: () => googleSheetsWorkbook(),
    doors: { imports: 'read', documents: 'read' },
  },
  {
    name: 'openxml-sdk.xlsx',
    about: "another system's export through the OpenXML SDK: 'x:' prefixes, absolute targets",
    make: () => prefixedWorkbook(),
    doors: { imports: 'read' },
  },
];

/** Where the small files are committed (`write-files.ts`); the exporters' own files are in `exporters/`. */
export const FILES_DIR = join(HERE, 'files');

/** Whether a file is committed in FILES_DIR: small, and made here (not by a real exporter). */
export const isCommitted = (file: CorpusFile) => !file.big && !EXPORTED.has(file.name);

/** A corpus file's bytes, made once per run (a committed file is the same bytes: the walk holds it). */
const made = new Map<string, Promise<Buffer>>();
export function bytesOf(file: CorpusFile): Promise<Buffer> {
  let bytes = made.get(file.name);
  if (!bytes) {
    bytes = Promise.resolve(file.make());
    made.set(file.name, bytes);
  }
  return bytes;
}
