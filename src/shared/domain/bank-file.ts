/**
 * The bank file (issue 53, decision 0053): a layout as data — columns in order, separator, header,
 * encoding, the bank's record limit per file — and the text it gives for a batch's lines. One record
 * per physical line whatever a field holds: every field is written on one line, without the
 * separator, so no value can break a record or add one (no quoting either: bank portals and scripts
 * read lines and split them). Pure; the server writes the file with it and Configuración previews it.
 */

export const BANK_FILE_FIELD_KEYS = [
  'holderRut',
  'holderName',
  'bankName',
  'bankAccountType',
  'bankAccountNumber',
  'amountClp',
  'reference',
  'email',
  'brokerRut',
  'brokerName',
  'reservationNumber',
  'paymentNumber',
] as const;
export type BankFileFieldKey = (typeof BANK_FILE_FIELD_KEYS)[number];

export type BankFileSeparator = ';' | ',' | '|' | 'tab';

export interface BankFileLayoutSpec {
  name: string;
  columns: readonly { field: BankFileFieldKey; header: string }[];
  separator: BankFileSeparator;
  hasHeader: boolean;
  encoding: 'utf-8' | 'windows-1252';
  maxRecords: number;
}

export type BankFileLine = Record<BankFileFieldKey, string | number | null>;

/** The generic layout: the columns 'Nómina de pago' always wrote, ';'-separated, with a header. */
export const GENERIC_BANK_LAYOUT: BankFileLayoutSpec = {
  name: 'Genérico',
  columns: [
    { field: 'holderRut', header: 'RUT Beneficiario' },
    { field: 'holderName', header: 'Nombre Beneficiario' },
    { field: 'bankName', header: 'Banco' },
    { field: 'bankAccountType', header: 'Tipo de Cuenta' },
    { field: 'bankAccountNumber', header: 'Número de Cuenta' },
    { field: 'amountClp', header: 'Monto' },
    { field: 'reference', header: 'Referencia' },
    { field: 'email', header: 'Correo Electrónico' },
  ],
  separator: ';',
  hasHeader: true,
  encoding: 'utf-8',
  maxRecords: 1000,
};

export const RECORD_SEPARATOR = '\r\n';

export function separatorOf(layout: Pick<BankFileLayoutSpec, 'separator'>): string {
  return layout.separator === 'tab' ? '\t' : layout.separator;
}

/**
 * Everything that may end or split a line for some reader: control characters (CR, LF, TAB, NEL,
 * VT, FF…), format and bidirectional characters, the Unicode line and paragraph separators.
 */
const LINE_BREAKERS = /[\p{Cc}\p{Cf}\u2028\u2029]/gu;

/** A value as one field of one line: breakers and the separator become spaces, spaces collapsed. */
export function bankField(value: string | number | null, separator: string): string {
  if (value === null) return '';
  return String(value).replace(LINE_BREAKERS, ' ').replaceAll(separator, ' ').replace(/ {2,}/g, ' ').trim();
}

/** One record: the layout's columns in order. */
export function bankRecord(layout: BankFileLayoutSpec, line: BankFileLine): string {
  const separator = separatorOf(layout);
  return layout.columns.map((column) => bankField(line[column.field], separator)).join(separator);
}

/** The header record (when the layout has one). */
export function bankHeader(layout: BankFileLayoutSpec): string {
  const separator = separatorOf(layout);
  return layout.columns.map((column) => bankField(column.header, separator)).join(separator);
}

/** The whole file's text: the header (if any), then one record per line, each ended by CRLF. */
export function bankFileText(layout: BankFileLayoutSpec, lines: readonly BankFileLine[]): string {
  const records = lines.map((line) => bankRecord(layout, line));
  if (layout.hasHeader) records.unshift(bankHeader(layout));
  return records.map((record) => record + RECORD_SEPARATOR).join('');
}
