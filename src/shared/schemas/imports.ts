import { z } from 'zod';
import { foldText } from '../domain/import-cells';
import { line } from './common';

/**
 * The import's kinds and their columns (issue 32): the Spanish header of each field, the spellings
 * staff use for it, how its cells are read, whether it is required and, for lists, the allowed
 * values (the template's Excel lists). One definition drives the template, the mapping screen, the
 * header matching and the server's reading of the rows.
 */

export const IMPORT_KINDS = ['clients', 'brokers', 'units', 'reservations'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

export const IMPORT_KIND_LABELS: Record<ImportKind, string> = {
  clients: 'Clientes',
  brokers: 'Brokers',
  units: 'Unidades y precios',
  reservations: 'Reservas',
};

export type FieldType =
  | 'text'
  | 'rut'
  | 'date'
  | 'amount'
  | 'percent'
  | 'yesNo'
  | 'integer'
  | 'email'
  | 'list';

export interface ImportField {
  key: string;
  /** The template's header. */
  label: string;
  /** Other headers that mean the same (compared folded: no case, no accents). */
  aliases?: readonly string[];
  type: FieldType;
  required?: boolean;
  /** The values a 'list' field accepts (and the template's Excel list for it). */
  values?: readonly string[];
  /** The template's example row. */
  example: string;
  /**
   * Columns that together make this field when no one column does (folded headers, in order):
   * 'Apellido Paterno' + 'Apellido Materno' → Apellidos (issue 55).
   */
  joins?: readonly (readonly string[])[];
}

/** A field's columns: one, several joined with a space (issue 55), or none. */
export type ColumnMapping = Record<string, number | number[] | null>;

/** The columns mapped to a field, in order (none: an empty list). */
export function columnsOf(mapping: ColumnMapping, key: string): number[] {
  const value = mapping[key];
  if (value === null || value === undefined) return [];
  return typeof value === 'number' ? [value] : value;
}

/** Columns a field may join. */
export const MAX_JOINED_COLUMNS = 4;

/** The sale flow's stages an imported reservation may have reached ('Completada': every task done). */
export const IMPORT_STAGES = ['Reserva', 'Promesa', 'Escrituración', 'Reparos', 'Completada'] as const;
export type ImportStage = (typeof IMPORT_STAGES)[number];

const YES_NO = ['Sí', 'No'] as const;

/** The kinds of unit as a file names them (the template's Excel list), in the order of UNIT_KINDS. */
export const IMPORT_UNIT_KINDS = ['Departamento', 'Estacionamiento', 'Bodega'] as const;

const CLIENT_FIELDS: readonly ImportField[] = [
  {
    key: 'rut',
    label: 'RUT',
    aliases: ['RUT Cliente', 'Rut del cliente', 'RUN'],
    type: 'rut',
    required: true,
    example: '12.345.678-5',
  },
  {
    key: 'firstName',
    label: 'Nombres',
    aliases: ['Nombre', 'Nombres cliente'],
    type: 'text',
    required: true,
    example: 'María José',
  },
  {
    key: 'lastName',
    label: 'Apellidos',
    aliases: ['Apellido', 'Apellidos cliente'],
    joins: [
      ['Apellido Paterno', 'Apellido Materno'],
      ['Primer Apellido', 'Segundo Apellido'],
    ],
    type: 'text',
    required: true,
    example: 'González Pérez',
  },
  {
    key: 'birthDate',
    label: 'Fecha de nacimiento',
    aliases: ['Fecha nacimiento', 'Nacimiento', 'F. nacimiento'],
    type: 'date',
    required: true,
    example: '15/04/1985',
  },
  {
    key: 'phone',
    label: 'Teléfono',
    aliases: ['Telefono', 'Celular', 'Fono', 'Móvil'],
    type: 'text',
    example: '+56 9 1234 5678',
  },
  {
    key: 'email',
    label: 'Correo electrónico',
    aliases: ['Correo', 'Email', 'E-mail', 'Mail'],
    type: 'email',
    example: 'maria.gonzalez@correo.cl',
  },
];

const BROKER_FIELDS: readonly ImportField[] = [
  {
    key: 'rut',
    label: 'RUT',
    aliases: ['RUT Broker', 'Rut empresa'],
    type: 'rut',
    required: true,
    example: '76.543.210-3',
  },
  {
    key: 'name',
    label: 'Nombre',
    aliases: ['Nombre broker', 'Broker', 'Nombre de fantasía'],
    type: 'text',
    required: true,
    example: 'Corredora Andes',
  },
  {
    key: 'businessName',
    label: 'Razón social',
    aliases: ['Razon social'],
    type: 'text',
    required: true,
    example: 'Corredora Andes SpA',
  },
  {
    key: 'constitutionDate',
    label: 'Fecha de constitución',
    aliases: ['Fecha constitución', 'Constitución'],
    type: 'date',
    required: true,
    example: '02/03/2015',
  },
  {
    key: 'constitutionNotary',
    label: 'Notaría de constitución',
    aliases: ['Notaría', 'Notaria'],
    type: 'text',
    required: true,
    example: 'Notaría Pérez',
  },
  {
    key: 'legalRepresentative',
    label: 'Representante legal',
    type: 'text',
    required: true,
    example: 'Juan Soto',
  },
  {
    key: 'legalRepresentativeRut',
    label: 'RUT representante legal',
    aliases: ['RUT representante'],
    type: 'rut',
    required: true,
    example: '9.876.543-3',
  },
  {
    key: 'commercialAddress',
    label: 'Dirección comercial',
    aliases: ['Dirección', 'Direccion'],
    type: 'text',
    required: true,
    example: 'Av. Apoquindo 1234, of. 501',
  },
  { key: 'commercialAddressCommune', label: 'Comuna', type: 'text', required: true, example: 'Las Condes' },
  {
    key: 'commercialContactName',
    label: 'Contacto comercial',
    aliases: ['Nombre contacto comercial'],
    type: 'text',
    required: true,
    example: 'Ana Rojas',
  },
  {
    key: 'commercialContactPhone',
    label: 'Teléfono contacto comercial',
    type: 'text',
    example: '+56 2 2345 6789',
  },
  {
    key: 'commercialContactEmail',
    label: 'Correo contacto comercial',
    type: 'email',
    example: 'ana@andes.cl',
  },
  { key: 'operationsContactName', label: 'Contacto operaciones', type: 'text', example: '' },
  { key: 'operationsContactPhone', label: 'Teléfono contacto operaciones', type: 'text', example: '' },
  { key: 'operationsContactEmail', label: 'Correo contacto operaciones', type: 'email', example: '' },
  { key: 'financeContactName', label: 'Contacto finanzas', type: 'text', example: '' },
  { key: 'financeContactPhone', label: 'Teléfono contacto finanzas', type: 'text', example: '' },
  { key: 'financeContactEmail', label: 'Correo contacto finanzas', type: 'email', example: '' },
  {
    key: 'kamName',
    label: 'KAM',
    aliases: ['Nombre KAM'],
    type: 'text',
    required: true,
    example: 'Pedro Lagos',
  },
  { key: 'kamPhone', label: 'Teléfono KAM', type: 'text', example: '' },
  { key: 'kamEmail', label: 'Correo KAM', type: 'email', example: '' },
  {
    key: 'kamReceivesCommission',
    label: 'KAM recibe comisión',
    aliases: ['KAM recibe comision'],
    type: 'yesNo',
    values: YES_NO,
    example: 'No',
  },
];

/**
 * One row, one unit of a project (decision 0041): its key is project + kind + number; its list price,
 * when given, enters the price history as a new price list from 'Precio vigente desde' (blank: the
 * import's day) for the units whose price changes.
 */
const UNIT_FIELDS: readonly ImportField[] = [
  {
    key: 'projectName',
    label: 'Proyecto',
    aliases: ['Nombre proyecto'],
    type: 'text',
    required: true,
    example: 'Edificio Los Aromos',
  },
  {
    key: 'kind',
    label: 'Tipo de unidad',
    aliases: ['Tipo', 'Tipo unidad'],
    type: 'list',
    values: IMPORT_UNIT_KINDS,
    required: true,
    example: 'Departamento',
  },
  {
    key: 'number',
    label: 'Número',
    aliases: ['N° Unidad', 'Número unidad', 'Unidad', 'Nro unidad'],
    type: 'text',
    required: true,
    example: '501',
  },
  { key: 'floor', label: 'Piso', type: 'text', example: '5' },
  {
    key: 'building',
    label: 'Edificio / Torre',
    aliases: ['Torre', 'Edificio', 'Edificio o torre'],
    type: 'text',
    example: 'Torre A',
  },
  { key: 'typology', label: 'Tipología', aliases: ['Tipologia', 'Programa'], type: 'text', example: '2D2B' },
  { key: 'orientation', label: 'Orientación', aliases: ['Orientacion'], type: 'text', example: 'Norte' },
  {
    key: 'usableArea',
    label: 'm² útiles',
    aliases: ['m2 útiles', 'Superficie útil', 'Sup. útil'],
    type: 'amount',
    example: '54,30',
  },
  {
    key: 'terraceArea',
    label: 'm² terraza',
    aliases: ['m2 terraza', 'Superficie terraza', 'Sup. terraza'],
    type: 'amount',
    example: '8,10',
  },
  {
    key: 'totalArea',
    label: 'm² totales',
    aliases: ['m2 totales', 'Superficie total', 'Sup. total'],
    type: 'amount',
    example: '62,40',
  },
  {
    key: 'price',
    label: 'Precio lista UF',
    aliases: ['Precio lista', 'Precio UF', 'Precio'],
    type: 'amount',
    example: '3.250,00',
  },
  {
    key: 'priceDate',
    label: 'Precio vigente desde',
    aliases: ['Vigencia precio', 'Fecha lista de precios'],
    type: 'date',
    example: '',
  },
];

const RESERVATION_FIELDS: readonly ImportField[] = [
  {
    key: 'reservationNumber',
    label: 'N° Reserva',
    aliases: ['Número de reserva', 'Nro reserva', 'Reserva', 'N reserva', 'No reserva'],
    type: 'text',
    required: true,
    example: 'R-1001',
  },
  {
    key: 'clientRut',
    label: 'RUT Cliente',
    aliases: ['Rut', 'RUT comprador'],
    type: 'rut',
    required: true,
    example: '12.345.678-5',
  },
  {
    key: 'projectName',
    label: 'Proyecto',
    aliases: ['Nombre proyecto'],
    type: 'text',
    required: true,
    example: 'Edificio Los Aromos',
  },
  {
    key: 'seller',
    label: 'Vendedor',
    aliases: ['Correo vendedor', 'Vendedora'],
    type: 'text',
    example: 'vendedor@inmobiliaria.cl',
  },
  {
    key: 'reservationDate',
    label: 'Fecha reserva',
    aliases: ['Fecha de reserva'],
    type: 'date',
    required: true,
    example: '10/01/2025',
  },
  {
    key: 'apartmentNumber',
    label: 'Departamento',
    aliases: ['Depto', 'N° Departamento', 'Unidad'],
    type: 'text',
    required: true,
    example: '501',
  },
  { key: 'parkingNumber', label: 'Estacionamiento', aliases: ['Estac'], type: 'text', example: 'E-12' },
  { key: 'storageNumber', label: 'Bodega', type: 'text', example: 'B-3' },
  {
    key: 'apartmentPrice',
    label: 'Precio departamento',
    aliases: ['Precio depto'],
    type: 'amount',
    required: true,
    example: '3.250,00',
  },
  { key: 'parkingPrice', label: 'Precio estacionamiento', type: 'amount', example: '250,00' },
  { key: 'storagePrice', label: 'Precio bodega', type: 'amount', example: '80,00' },
  { key: 'columnDiscount', label: 'Descuento columna', type: 'percent', example: '5%' },
  { key: 'additionalDiscount', label: 'Descuento adicional', type: 'percent', example: '0%' },
  {
    key: 'otherDiscount',
    label: 'Otro descuento',
    aliases: ['Otros descuentos'],
    type: 'percent',
    example: '0%',
  },
  { key: 'reservationPayment', label: 'Pago reserva', type: 'amount', example: '20,00' },
  { key: 'promisePayment', label: 'Pago promesa', type: 'amount', example: '100,00' },
  { key: 'downPayment', label: 'Pie', aliases: ['Pago pie'], type: 'amount', example: '500,00' },
  {
    key: 'creditPayment',
    label: 'Crédito hipotecario',
    aliases: ['Crédito', 'Pago crédito'],
    type: 'amount',
    example: '2.600,00',
  },
  { key: 'subsidyPayment', label: 'Subsidio', aliases: ['Pago subsidio'], type: 'amount', example: '0' },
  { key: 'brokerRut', label: 'RUT Broker', aliases: ['Rut corredor'], type: 'rut', example: '76.543.210-3' },
  {
    key: 'commissionAmount',
    label: 'Monto comisión',
    aliases: ['Comisión', 'Comision UF'],
    type: 'amount',
    example: '60,00',
  },
  {
    key: 'commissionIncludesTax',
    label: 'Comisión incluye IVA',
    type: 'yesNo',
    values: YES_NO,
    example: 'Sí',
  },
  {
    key: 'commissionForDiscount',
    label: 'Comisión para descuento',
    type: 'yesNo',
    values: YES_NO,
    example: 'Sí',
  },
  { key: 'paysSecondary', label: 'Paga secundarios', type: 'yesNo', values: YES_NO, example: 'No' },
  {
    key: 'numberOfPayments',
    label: 'Número de pagos',
    aliases: ['N° pagos', 'Cuotas comisión'],
    type: 'list',
    values: ['1', '2'],
    example: '2',
  },
  {
    key: 'firstPaymentPercentage',
    label: 'Porcentaje primer pago',
    aliases: ['% primer pago'],
    type: 'list',
    values: ['25', '50', '100'],
    example: '50',
  },
  { key: 'purchaseOrder', label: 'Orden de compra', type: 'text', example: '' },
  { key: 'invoice1', label: 'Factura 1', type: 'text', example: 'F-2201' },
  { key: 'invoice1Date', label: 'Fecha factura 1', type: 'date', example: '15/03/2025' },
  {
    key: 'payment1Date',
    label: 'Fecha pago 1',
    aliases: ['Fecha primer pago'],
    type: 'date',
    example: '30/03/2025',
  },
  { key: 'invoice2', label: 'Factura 2', type: 'text', example: '' },
  { key: 'invoice2Date', label: 'Fecha factura 2', type: 'date', example: '' },
  { key: 'payment2Date', label: 'Fecha pago 2', aliases: ['Fecha segundo pago'], type: 'date', example: '' },
  {
    key: 'promiseDate',
    label: 'Fecha promesa',
    aliases: ['Fecha de promesa'],
    type: 'date',
    example: '20/02/2025',
  },
  {
    key: 'deedDate',
    label: 'Fecha escritura',
    aliases: ['Fecha de escritura', 'Fecha escrituración'],
    type: 'date',
    example: '',
  },
  {
    key: 'stage',
    label: 'Etapa alcanzada',
    aliases: ['Etapa', 'Etapa flujo venta'],
    type: 'list',
    values: IMPORT_STAGES,
    example: 'Escrituración',
  },
  {
    key: 'policyOverrideReason',
    label: 'Motivo excepción política',
    aliases: ['Motivo excepción', 'Excepción política comercial'],
    type: 'text',
    example: '',
  },
];

export const IMPORT_FIELDS: Record<ImportKind, readonly ImportField[]> = {
  clients: CLIENT_FIELDS,
  brokers: BROKER_FIELDS,
  units: UNIT_FIELDS,
  reservations: RESERVATION_FIELDS,
};

/**
 * Headers matched to fields, ignoring case, accents and punctuation ('RUT Cliente', 'rut', 'Fecha de
 * Nacimiento'); a remembered mapping (folded header → field) wins over the built-in spellings. Each
 * field takes the first column that matches it; the rest stay unmapped for the user to choose.
 */
export function matchHeaders(
  kind: ImportKind,
  headers: readonly string[],
  remembered: Record<string, string> = {},
): ColumnMapping {
  const fields = IMPORT_FIELDS[kind];
  const mapping: ColumnMapping = Object.fromEntries(fields.map((field) => [field.key, null]));
  const taken = new Set<number>();
  const folded = headers.map((header) => foldText(header));
  const assign = (key: string, index: number) => {
    if (mapping[key] === null && !taken.has(index)) {
      mapping[key] = index;
      taken.add(index);
    }
  };
  // The mapping remembered from the screen: several headers of one field are joined, in the file's order.
  folded.forEach((header, index) => {
    const key = remembered[header];
    if (!key || !(key in mapping) || taken.has(index)) return;
    const current = columnsOf(mapping, key);
    if (current.length >= MAX_JOINED_COLUMNS) return;
    mapping[key] = current.length === 0 ? index : [...current, index];
    taken.add(index);
  });
  // Exact labels first, then aliases: 'RUT Cliente' is the reservation's client even though 'RUT' is an alias.
  for (const pass of ['label', 'alias'] as const) {
    for (const field of fields) {
      const names = pass === 'label' ? [field.label] : (field.aliases ?? []);
      for (const name of names) {
        const index = folded.findIndex((header, i) => header === foldText(name) && !taken.has(i));
        if (index >= 0) assign(field.key, index);
      }
    }
  }
  // Then the columns that make a field together ('Apellido Paterno' + 'Apellido Materno').
  for (const field of fields) {
    if (mapping[field.key] !== null) continue;
    for (const names of field.joins ?? []) {
      const indexes = names.map((name) =>
        folded.findIndex((header, i) => header === foldText(name) && !taken.has(i)),
      );
      if (indexes.every((index) => index >= 0)) {
        mapping[field.key] = indexes;
        for (const index of indexes) taken.add(index);
        break;
      }
    }
  }
  return mapping;
}

// --- API ------------------------------------------------------------------------------------------

export const importKind = z.enum(IMPORT_KINDS, { error: 'Tipo de importación no válido' });

/** POST /api/imports/files?kind=…&name=…: the file's bytes are the body. */
export const uploadQuery = z.strictObject({
  kind: importKind,
  name: line().trim().min(1).max(200),
});

/** The last row that may be chosen as the header (a title block is a few rows). */
export const HEADER_ROW_MAX = 1_000;

/** A header row chosen by the user; null or absent: found by the reader below any title block. */
export const headerRowField = z
  .number()
  .int()
  .min(1, { error: `Elija una fila de encabezado entre 1 y ${HEADER_ROW_MAX}` })
  .max(HEADER_ROW_MAX, { error: `Elija una fila de encabezado entre 1 y ${HEADER_ROW_MAX}` })
  .nullable()
  .optional();

/** Why a row of the file was not read as data (decision 0049). */
export const SKIP_REASONS = ['title', 'blank', 'total', 'footer', 'repeated'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];
export const SKIP_REASON_LABELS: Record<SkipReason, string> = {
  title: 'título sobre el encabezado',
  blank: 'fila en blanco',
  total: 'fila de totales',
  footer: 'nota al pie (solo texto en la primera columna)',
  repeated: 'idéntica a otra fila del archivo: se importa una vez',
};
export const skippedRow = z.object({
  rowNumber: z.number().int(),
  reason: z.enum(SKIP_REASONS),
  /** A repeated row: the row it repeats (the one imported). */
  firstRow: z.number().int().optional(),
});
export type SkippedRow = z.infer<typeof skippedRow>;
/** Skipped rows listed in an answer; the count says how many there were. */
export const MAX_LISTED_SKIPPED = 100;

/** 'Fila 12: fila de totales' — a skipped row as the screen and `npm run import` say it. */
export function skippedSentence(row: SkippedRow): string {
  if (row.reason === 'repeated' && row.firstRow !== undefined)
    return `Fila ${row.rowNumber}: idéntica a la fila ${row.firstRow}, se importa una vez`;
  return `Fila ${row.rowNumber}: ${SKIP_REASON_LABELS[row.reason]}`;
}

/**
 * Rows of one file with the same key (issue 55): the first is kept and the others are errors naming
 * it ('keepFirst', the default), or every one of them is an error ('refuseAll'). Identical repeated
 * rows are imported once either way, with a note.
 */
export const REPEATED_KEYS = ['keepFirst', 'refuseAll'] as const;
export type RepeatedKeys = (typeof REPEATED_KEYS)[number];

/** Errors kept per row (then 'y N más'), so that a message never grows with the file (issue 52). */
export const MAX_ROW_ERRORS = 5;

/** What the screen shows after an upload: the sheets, where the header is, the headers and the mapping matched. */
export const uploadedFile = z.object({
  runId: z.uuid(),
  kind: importKind,
  fileName: z.string(),
  format: z.enum(['xlsx', 'csv']),
  sheets: z.array(z.string()),
  sheetName: z.string().nullable(),
  /** The header's row number, found below a title block or chosen. */
  headerRow: z.number().int(),
  headerChosen: z.boolean(),
  /** The first rows with something in them: what may be chosen as the header (their first cells as text). */
  headerCandidates: z.array(z.object({ rowNumber: z.number().int(), text: z.string() })),
  headers: z.array(z.string()),
  mapping: z.record(z.string(), z.union([z.number().int(), z.array(z.number().int())]).nullable()),
});
export type UploadedFile = z.infer<typeof uploadedFile>;

const columnIndex = z.number().int().min(0).max(199);
/** A field's column, or its columns joined (two to MAX_JOINED_COLUMNS, each once), or none. */
export const mappingBody = z.record(
  line().max(100),
  z
    .union([columnIndex, z.array(columnIndex)])
    .nullable()
    .superRefine((value, ctx) => {
      if (!Array.isArray(value)) return;
      if (value.length < 2 || value.length > MAX_JOINED_COLUMNS)
        ctx.addIssue({ code: 'custom', message: `Una columna une de 2 a ${MAX_JOINED_COLUMNS} columnas` });
      else if (new Set(value).size !== value.length)
        ctx.addIssue({ code: 'custom', message: 'Una columna se une una sola vez' });
    }),
);

/** Another sheet, or another header row, of the uploaded file. */
export const sheetBody = z.strictObject({
  sheetName: line().min(1).max(100).nullable().optional(),
  headerRow: headerRowField,
});

export const dryRunBody = z.strictObject({
  sheetName: line().min(1).max(100).nullable().optional(),
  headerRow: headerRowField,
  mapping: mappingBody,
  repeatedKeys: z.enum(REPEATED_KEYS).default('keepFirst'),
});

/** GET …/errors: the header row the review used, when the user chose one. */
export const errorsQuery = z.strictObject({
  headerRow: z.coerce.number().int().min(1).max(HEADER_ROW_MAX).optional(),
  repeatedKeys: z.enum(REPEATED_KEYS).optional(),
});

/** The errors workbook's first column: each row's number in the file uploaded (issue 55). */
export const ORIGINAL_ROW_HEADER = 'Fila original';

export const applyBody = dryRunBody.extend({ onlyValidRows: z.boolean().default(false) });

export const rowError = z.object({
  rowNumber: z.number().int(),
  column: z.string(),
  value: z.string(),
  reason: z.string(),
});
export type RowError = z.infer<typeof rowError>;

export const importCounts = z.object({
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  errors: z.number().int(),
});
export type ImportCounts = z.infer<typeof importCounts>;

/** 'N nuevos, N actualizados, N sin cambios, N con errores' (also the CLI's last line). */
export function countsSentence(counts: ImportCounts): string {
  return `${counts.created} nuevos, ${counts.updated} actualizados, ${counts.unchanged} sin cambios, ${counts.errors} con errores`;
}

export const MAX_LISTED_ERRORS = 500;

export const dryRunResult = z.object({
  counts: importCounts,
  totalRows: z.number().int(),
  /** The first MAX_LISTED_ERRORS errors; the errors workbook has them all. */
  errors: z.array(rowError),
  /** The errors not listed ('y N más'). */
  moreErrors: z.number().int(),
  summary: z.string(),
  /** Where the header was found or chosen. */
  headerRow: z.number().int(),
  /** The rows not read as data (the first MAX_LISTED_SKIPPED), and how many there were. */
  skippedRows: z.array(skippedRow),
  skippedCount: z.number().int(),
});
export type DryRunResult = z.infer<typeof dryRunResult>;

export const IMPORT_STATUSES = ['uploaded', 'applying', 'applied', 'failed', 'cancelled', 'undone'] as const;
export const IMPORT_STATUS_LABELS: Record<(typeof IMPORT_STATUSES)[number], string> = {
  uploaded: 'Sin aplicar',
  applying: 'Aplicando',
  applied: 'Aplicada',
  failed: 'Fallida',
  cancelled: 'Cancelada',
  undone: 'Deshecha',
};

export const importRun = z.object({
  id: z.uuid(),
  kind: importKind,
  fileName: z.string(),
  fileHash: z.string(),
  status: z.enum(IMPORT_STATUSES),
  /** The row its header was read from by the last review or apply (null before the first review). */
  headerRow: z.number().int().nullable(),
  totalRows: z.number().int(),
  processedRows: z.number().int(),
  counts: importCounts,
  failure: z.string().nullable(),
  createdByName: z.string().nullable(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  undoneAt: z.string().nullable(),
  /** Whether 'Deshacer importación' is offered (the server still checks later changes). */
  canUndo: z.boolean(),
});
export type ImportRun = z.infer<typeof importRun>;

export const importRunAnswer = z.object({ run: importRun });
export const importRunPage = z.object({ rows: z.array(importRun) });
export const runParams = z.strictObject({ id: z.uuid({ error: 'Importación no válida' }) });
export const kindParams = z.strictObject({ kind: importKind });
