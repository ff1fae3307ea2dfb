import { writeZip, type ZipPart } from './zip-writer';

/**
 * Workbooks built part by part, to the structure each exporter writes (decision 0049). Excel and
 * Google Sheets cannot run on this machine: their fixtures follow what their files hold, matched
 * from files they wrote — the parts and their order, relative or absolute part names, shared strings
 * with rich runs and phonetic guides, built-in or custom date formats, `spans` and `x14ac` attributes
 * (Excel) or no `<dimension>` and `state="visible"` (Google Sheets), booleans, formulas with their
 * cached values, error cells. openpyxl, pandas and LibreOffice fixtures are the programs' own files
 * (`exporters/`, `make-exporters.sh`).
 */

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL = 'http://schemas.openxmlformats.org/package/2006/relationships';
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n';

const contentTypes = (sheets: number, extra = '') =>
  `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>${Array.from(
    { length: sheets },
    (_, n) =>
      `<Override PartName="/xl/worksheets/sheet${n + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
  ).join(
    '',
  )}<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>${extra}</Types>`;

const rootRels = (workbookTarget: string) =>
  `${XML_HEAD}<Relationships xmlns="${PKG_REL}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="${workbookTarget}"/></Relationships>`;

export const escapeXml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/** The parts of a minimal workbook around one sheet's XML (the hostile files' frame). */
export function minimalWorkbook(options: {
  sheetXml: string | ZipPart['data'];
  sharedStrings?: string | ZipPart['data'];
  sharedStringsDeclaredSize?: number;
  workbookXml?: string;
  workbookDeclaredSize?: number;
}): Buffer {
  const parts: ZipPart[] = [
    { name: '[Content_Types].xml', data: contentTypes(1) },
    { name: '_rels/.rels', data: rootRels('xl/workbook.xml') },
    {
      name: 'xl/workbook.xml',
      data:
        options.workbookXml ??
        `${XML_HEAD}<workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets><sheet name="Hoja1" sheetId="1" r:id="rId1"/></sheets></workbook>`,
      ...(options.workbookDeclaredSize === undefined ? {} : { declaredSize: options.workbookDeclaredSize }),
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: `${XML_HEAD}<Relationships xmlns="${PKG_REL}"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
    },
    { name: 'xl/worksheets/sheet1.xml', data: options.sheetXml },
  ];
  if (options.sharedStrings !== undefined) {
    parts.push({
      name: 'xl/sharedStrings.xml',
      data: options.sharedStrings,
      ...(options.sharedStringsDeclaredSize === undefined
        ? {}
        : { declaredSize: options.sharedStringsDeclaredSize }),
    });
  }
  return writeZip(parts);
}

/** A sheet of inline-string rows (`rows` of texts), in the shape openpyxl writes. */
export function inlineSheet(rows: readonly (readonly string[])[]): string {
  const body = rows
    .map(
      (cells, index) =>
        `<row r="${index + 1}">${cells
          .map((text) => `<c t="inlineStr"><is><t>${escapeXml(text)}</t></is></c>`)
          .join('')}</row>`,
    )
    .join('');
  return `<worksheet xmlns="${MAIN}"><sheetData>${body}</sheetData></worksheet>`;
}

/** The client list every exporter fixture holds (as `make-exporters.py` writes it). */
export const CLIENT_HEADER = [
  'RUT',
  'Nombres',
  'Apellido Paterno',
  'Apellido Materno',
  'Fecha de nacimiento',
  'Correo',
  'Teléfono',
] as const;

/**
 * Excel (Microsoft 365, Windows): relative targets, shared strings (one rich, one with a phonetic
 * guide), dates with the built-in format 14, a formula with its cached value, a boolean, an error
 * cell, `spans`/`x14ac:dyDescent` on rows, a merged title, `_x000D_` for a carriage return, and the
 * parts in Excel's order. `date1904`: the 1904 system (Excel for Mac before 2016).
 */
export function excelWorkbook(options: { date1904?: boolean } = {}): Buffer {
  const strings = [
    'Listado de clientes',
    'RUT',
    'Nombres',
    'Apellido Paterno',
    'Apellido Materno',
    'Fecha de nacimiento',
    'Correo',
    'Teléfono',
    '12.345.678-5',
    'Núñez',
    'Peña',
    'ana@example.cl',
    '9.876.543-3',
    'José',
    'Ñancupil',
    'Araya',
    'jose@example.cl',
    'Total: 2 clientes',
  ];
  const si = (text: string) => `<si><t>${escapeXml(text)}</t></si>`;
  // Index 18: 'Ana María' in two runs (bold first name); 19: a note with a CR escaped and a line feed.
  const sst = `${XML_HEAD}<sst xmlns="${MAIN}" count="24" uniqueCount="21">${strings.map(si).join('')}<si><r><rPr><b/><sz val="11"/><color theme="1"/><rFont val="Calibri"/><family val="2"/><scheme val="minor"/></rPr><t>Ana</t></r><r><rPr><sz val="11"/><color theme="1"/><rFont val="Calibri"/><family val="2"/><scheme val="minor"/></rPr><t xml:space="preserve"> María</t></r></si><si><t>línea uno_x000D_\nlínea dos</t></si><si><t>Tanaka</t><rPh sb="0" eb="6"><t>タナカ</t></rPh><phoneticPr fontId="1"/></si></sst>`;
  // 1900 system: 1980-02-01 is 29252, 1975-12-31 is 27759; 1904 system: 1462 days fewer.
  const serial = (value: number) => (options.date1904 ? value - 1462 : value);
  const row = (r: number, cells: string) => `<row r="${r}" spans="1:8" x14ac:dyDescent="0.25">${cells}</row>`;
  const s = (ref: string, index: number, style = 0) =>
    `<c r="${ref}"${style ? ` s="${style}"` : ''} t="s"><v>${index}</v></c>`;
  const sheet = `${XML_HEAD}<worksheet xmlns="${MAIN}" xmlns:r="${REL}" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" mc:Ignorable="x14ac xr xr2 xr3" xmlns:x14ac="http://schemas.microsoft.com/office/spreadsheetml/2009/9/ac" xmlns:xr="http://schemas.microsoft.com/office/spreadsheetml/2014/revision" xmlns:xr2="http://schemas.microsoft.com/office/spreadsheetml/2015/revision2" xmlns:xr3="http://schemas.microsoft.com/office/spreadsheetml/2016/revision3" xr:uid="{00000000-0001-0000-0000-000000000000}"><dimension ref="A1:J7"/><sheetViews><sheetView tabSelected="1" workbookViewId="0"><selection activeCell="A4" sqref="A4"/></sheetView></sheetViews><sheetFormatPr defaultRowHeight="15" x14ac:dyDescent="0.25"/><cols><col min="1" max="1" width="14.7109375" customWidth="1"/></cols><sheetData>${row(
    1,
    s('A1', 0, 1),
  )}${row(
    3,
    [1, 2, 3, 4, 5, 6, 7].map((n, i) => s(`${'ABCDEFG'[i]}3`, n, 1)).join('') +
      '<c r="H3" s="1" t="str"><v>Edad</v></c><c r="I3" s="1" t="s"><v>20</v></c><c r="J3" s="1"/>',
  )}${row(
    4,
    `${s('A4', 8)}${s('B4', 18)}${s('C4', 9)}${s('D4', 10)}<c r="E4" s="2"><v>${serial(29252)}</v></c>${s('F4', 11)}<c r="G4" t="s"><v>19</v></c><c r="H4"><f>DATEDIF(E4,DATE(2026,12,1),"y")</f><v>46</v></c><c r="I4" t="b"><v>1</v></c>`,
  )}${row(
    5,
    `${s('A5', 12)}${s('B5', 13)}${s('C5', 14)}${s('D5', 15)}<c r="E5" s="2"><v>${serial(27759)}</v></c>${s('F5', 16)}<c r="G5" s="3"><v>56222345678</v></c><c r="H5" t="e"><f>1/0</f><v>#DIV/0!</v></c><c r="I5" t="b"><v>0</v></c>`,
  )}${row(7, s('A7', 17))}</sheetData><mergeCells count="1"><mergeCell ref="A1:G1"/></mergeCells><pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>`;
  const styles = `${XML_HEAD}<styleSheet xmlns="${MAIN}" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" mc:Ignorable="x14ac x16r2 xr" xmlns:x14ac="http://schemas.microsoft.com/office/spreadsheetml/2009/9/ac"><numFmts count="1"><numFmt numFmtId="164" formatCode="0"/></numFmts><fonts count="2" x14ac:knownFonts="1"><font><sz val="11"/><color theme="1"/><name val="Calibri"/><family val="2"/><scheme val="minor"/></font><font><b/><sz val="11"/><color theme="1"/><name val="Calibri"/><family val="2"/><scheme val="minor"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="4"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/><xf numFmtId="14" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles><dxfs count="0"/><tableStyles count="0" defaultTableStyle="TableStyleMedium2" defaultPivotStyle="PivotStyleLight16"/></styleSheet>`;
  const workbook = `${XML_HEAD}<workbook xmlns="${MAIN}" xmlns:r="${REL}" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" mc:Ignorable="x15 xr xr6 xr10 xr2" xmlns:x15="http://schemas.microsoft.com/office/spreadsheetml/2010/11/main"><fileVersion appName="xl" lastEdited="7" lowestEdited="7" rupBuild="27328"/><workbookPr${options.date1904 ? ' date1904="1"' : ''} defaultThemeVersion="166925"/><bookViews><workbookView xWindow="-120" yWindow="-120" windowWidth="29040" windowHeight="15840"/></bookViews><sheets><sheet name="Clientes" sheetId="1" r:id="rId1"/></sheets><calcPr calcId="191029"/></workbook>`;
  return writeZip([
    { name: '[Content_Types].xml', data: contentTypes(1) },
    {
      name: '_rels/.rels',
      data: `${XML_HEAD}<Relationships xmlns="${PKG_REL}"><Relationship Id="rId3" Type="${REL}/extended-properties" Target="docProps/app.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    },
    { name: 'xl/workbook.xml', data: workbook },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: `${XML_HEAD}<Relationships xmlns="${PKG_REL}"><Relationship Id="rId3" Type="${REL}/styles" Target="styles.xml"/><Relationship Id="rId2" Type="${REL}/theme" Target="theme/theme1.xml"/><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId4" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
    },
    { name: 'xl/worksheets/sheet1.xml', data: sheet },
    {
      name: 'xl/theme/theme1.xml',
      data: `${XML_HEAD}<a:theme xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" name="Office Theme"/>`,
    },
    { name: 'xl/styles.xml', data: styles },
    { name: 'xl/sharedStrings.xml', data: sst },
    {
      name: 'docProps/core.xml',
      data: `${XML_HEAD}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties"/>`,
    },
    {
      name: 'docProps/app.xml',
      data: `${XML_HEAD}<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"><Application>Microsoft Excel</Application></Properties>`,
    },
  ]);
}

/**
 * Google Sheets (File → Download → .xlsx): the workbook's parts first and the package's last, no
 * `<dimension>`, `state="visible"` on the sheet, a custom date format (164, 'd/m/yyyy'), every cell
 * styled, a formula with its cached value, a boolean, and the first sheet named 'Hoja 1'.
 */
export function googleSheetsWorkbook(): Buffer {
  const strings = [
    'RUT',
    'Nombres',
    'Apellido Paterno',
    'Apellido Materno',
    'Fecha de nacimiento',
    'Correo',
    'Activo',
    '12.345.678-5',
    'Ana María',
    'Núñez',
    'Peña',
    'ana@example.cl',
  ];
  const sst = `${XML_HEAD}<sst xmlns="${MAIN}" count="12" uniqueCount="12">${strings.map((text) => `<si><t>${escapeXml(text)}</t></si>`).join('')}</sst>`;
  const s = (ref: string, index: number) => `<c r="${ref}" s="1" t="s"><v>${index}</v></c>`;
  const sheet = `${XML_HEAD}<worksheet xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" xmlns:x14="http://schemas.microsoft.com/office/spreadsheetml/2009/9/main" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" xmlns:mv="urn:schemas-microsoft-com:mac:vml" xmlns:x14ac="http://schemas.microsoft.com/office/spreadsheetml/2009/9/ac" xmlns:x15="http://schemas.microsoft.com/office/spreadsheetml/2010/11/main" xmlns:x15ac="http://schemas.microsoft.com/office/spreadsheetml/2010/11/ac" xmlns:xm="http://schemas.microsoft.com/office/excel/2006/main" xmlns:r="${REL}" xmlns="${MAIN}"><sheetPr><outlinePr summaryBelow="0" summaryRight="0"/></sheetPr><sheetViews><sheetView workbookViewId="0"/></sheetViews><sheetFormatPr customHeight="1" defaultColWidth="12.63" defaultRowHeight="15.75"/><sheetData><row r="1">${[0, 1, 2, 3, 4, 5, 6].map((n, i) => s(`${'ABCDEFG'[i]}1`, n)).join('')}</row><row r="2">${s('A2', 7)}${s('B2', 8)}${s('C2', 9)}${s('D2', 10)}<c r="E2" s="2"><v>29252.0</v></c>${s('F2', 11)}<c r="G2" s="1" t="b"><v>1</v></c><c r="H2" s="1"><f>YEAR(E2)</f><v>1980.0</v></c></row></sheetData><drawing r:id="rId1"/></worksheet>`;
  const styles = `${XML_HEAD}<styleSheet xmlns:x14ac="http://schemas.microsoft.com/office/spreadsheetml/2009/9/ac" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" xmlns="${MAIN}"><numFmts count="1"><numFmt numFmtId="164" formatCode="d/m/yyyy"/></numFmts><fonts count="2"><font><sz val="10.0"/><color rgb="FF000000"/><name val="Arial"/><scheme val="minor"/></font><font><color theme="1"/><name val="Arial"/><scheme val="minor"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="lightGray"/></fill></fills><borders count="1"><border/></borders><cellStyleXfs count="1"><xf borderId="0" fillId="0" fontId="0" numFmtId="0" applyAlignment="1" applyFont="1"/></cellStyleXfs><cellXfs count="3"><xf borderId="0" fillId="0" fontId="0" numFmtId="0" xfId="0" applyAlignment="1" applyFont="1"><alignment readingOrder="0" shrinkToFit="0" vertical="bottom" wrapText="0"/></xf><xf borderId="0" fillId="0" fontId="1" numFmtId="0" xfId="0" applyAlignment="1" applyFont="1"><alignment readingOrder="0"/></xf><xf borderId="0" fillId="0" fontId="1" numFmtId="164" xfId="0" applyAlignment="1" applyFont="1" applyNumberFormat="1"><alignment readingOrder="0"/></xf></cellXfs><cellStyles count="1"><cellStyle xfId="0" name="Normal" builtinId="0"/></cellStyles><dxfs count="0"/></styleSheet>`;
  return writeZip([
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: `${XML_HEAD}<Relationships xmlns="${PKG_REL}"><Relationship Id="rId1" Type="${REL}/theme" Target="theme/theme1.xml"/><Relationship Id="rId2" Type="${REL}/styles" Target="styles.xml"/><Relationship Id="rId3" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/><Relationship Id="rId4" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
    },
    {
      name: 'xl/workbook.xml',
      data: `${XML_HEAD}<workbook xmlns="${MAIN}" xmlns:r="${REL}"><workbookPr/><sheets><sheet state="visible" name="Hoja 1" sheetId="1" r:id="rId4"/></sheets><definedNames/><calcPr/></workbook>`,
    },
    { name: 'xl/styles.xml', data: styles },
    { name: 'xl/sharedStrings.xml', data: sst },
    {
      name: 'xl/theme/theme1.xml',
      data: `${XML_HEAD}<a:theme xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" name="Sheets"/>`,
    },
    { name: 'xl/worksheets/sheet1.xml', data: sheet },
    {
      name: 'xl/worksheets/_rels/sheet1.xml.rels',
      data: `${XML_HEAD}<Relationships xmlns="${PKG_REL}"><Relationship Id="rId1" Type="${REL}/drawing" Target="../drawings/drawing1.xml"/></Relationships>`,
    },
    {
      name: 'xl/drawings/drawing1.xml',
      data: `${XML_HEAD}<xdr:wsDr xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing"/>`,
    },
    { name: '_rels/.rels', data: rootRels('xl/workbook.xml') },
    {
      name: '[Content_Types].xml',
      data: contentTypes(
        1,
        '<Override PartName="/xl/drawings/drawing1.xml" ContentType="application/vnd.openxmlformats-officedocument.drawing+xml"/>',
      ),
    },
  ]);
}

/** The OpenXML SDK's style (.NET exporters of other systems): every element with an `x:` prefix, and an absolute workbook target. */
export function prefixedWorkbook(): Buffer {
  const X = 'xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
  const row = (r: number, texts: readonly string[]) =>
    `<x:row r="${r}">${texts.map((text) => `<x:c t="inlineStr"><x:is><x:t>${escapeXml(text)}</x:t></x:is></x:c>`).join('')}</x:row>`;
  return writeZip([
    { name: '[Content_Types].xml', data: contentTypes(1) },
    { name: '_rels/.rels', data: rootRels('/xl/workbook.xml') },
    {
      name: 'xl/workbook.xml',
      data: `<?xml version="1.0" encoding="utf-8"?><x:workbook ${X} xmlns:r="${REL}"><x:sheets><x:sheet name="Clientes" sheetId="1" r:id="R1a2b3c"/></x:sheets></x:workbook>`,
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: `<?xml version="1.0" encoding="utf-8"?><Relationships xmlns="${PKG_REL}"><Relationship Type="${REL}/worksheet" Target="/xl/worksheets/sheet1.xml" Id="R1a2b3c"/></Relationships>`,
    },
    {
      name: 'xl/worksheets/sheet1.xml',
      data: `<?xml version="1.0" encoding="utf-8"?><x:worksheet ${X}><x:sheetData>${row(1, CLIENT_HEADER)}${row(2, ['12.345.678-5', 'Ana María', 'Núñez', 'Peña', '01/02/1980', 'ana@example.cl', '+56 9 1234 5678'])}</x:sheetData></x:worksheet>`,
    },
  ]);
}
