import { normalizeRut } from './rut';
import { isCalendarDate } from './uf';

/**
 * The SII's electronic invoice (DTE, Documento Tributario Electrónico) read for the few fields the
 * invoice check needs (decision 0039): issuer RUT, type (33 afecta, 34 exenta), folio, issue date
 * and totals. No XML library is a dependency (jsdom is the tests' alone), and these fields sit at
 * fixed places of the SII's schema (`DTE/Documento/Encabezado/{IdDoc,Emisor,Totales}`), so a tight
 * reader of those elements does the job: it refuses DTDs and entities (nothing is expanded), a file
 * with no document or several, and any field that is not what the schema says.
 */

export interface DteInvoice {
  kind: 'taxed' | 'exempt';
  issuerRut: string;
  folio: string;
  issueDate: string;
  netAmount: string;
  vatAmount: string;
  totalAmount: string;
}

export type DteReading = { ok: true; invoice: DteInvoice } | { ok: false; reason: string };

/** The text of an XML file's bytes: ISO-8859-1 when its declaration says so (the SII's usual), else UTF-8. */
export function decodeXmlBytes(bytes: Uint8Array): string {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 200));
  const declared = /^\uFEFF?\s*<\?xml[^>]*encoding\s*=\s*["']([\w.-]+)["']/i.exec(head)?.[1]?.toLowerCase();
  const latin = declared === 'iso-8859-1' || declared === 'latin1' || declared === 'windows-1252';
  return new TextDecoder(latin ? 'latin1' : 'utf-8').decode(bytes);
}

const NAME_PREFIX = '(?:[A-Za-z_][\\w.-]*:)?';

/** Every element named `name` (any namespace prefix) in `xml`: its inner text. */
function elements(xml: string, name: string): string[] {
  const pattern = new RegExp(
    `<${NAME_PREFIX}${name}(?:\\s[^>]*)?>([\\s\\S]*?)</${NAME_PREFIX}${name}\\s*>`,
    'g',
  );
  return [...xml.matchAll(pattern)].map((match) => match[1]!);
}

function first(xml: string | null, name: string): string | null {
  if (xml === null) return null;
  return elements(xml, name)[0] ?? null;
}

/** A leaf's text: trimmed, without markup, with the five predefined entities and character references. */
function leaf(xml: string | null, name: string): string | null {
  const inner = first(xml, name);
  if (inner === null || inner.includes('<')) return null;
  return inner
    .trim()
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, digits: string) => String.fromCodePoint(Number(digits)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

const WHOLE_PESOS = /^\d{1,14}$/;

/** Reads a DTE (alone, or the one document of an EnvioDTE); refuses anything else in Spanish. */
export function readDte(text: string): DteReading {
  const refuse = (reason: string): DteReading => ({ ok: false, reason });
  const xml = text.replace(/^\uFEFF/, '').replace(/<!--[\s\S]*?-->/g, '');
  if (!/^\s*</.test(xml)) return refuse('el archivo no es XML');
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) return refuse('el XML declara entidades o un DOCTYPE');
  const root = /^\s*(?:<\?xml[^>]*\?>\s*)?<([A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)/.exec(xml)?.[2];
  if (root !== 'DTE' && root !== 'EnvioDTE')
    return refuse('no es un documento tributario electrónico del SII');
  const documents = elements(xml, 'Documento');
  if (documents.length === 0) return refuse('no es un documento tributario electrónico del SII');
  if (documents.length > 1)
    return refuse(`trae ${documents.length} documentos; suba el XML de esta factura sola`);
  const header = first(documents[0]!, 'Encabezado');
  const idDoc = first(header, 'IdDoc');
  const issuer = first(header, 'Emisor');
  const totals = first(header, 'Totales');
  if (idDoc === null || issuer === null || totals === null)
    return refuse('le falta el encabezado (IdDoc, Emisor o Totales)');

  const type = leaf(idDoc, 'TipoDTE');
  if (type !== '33' && type !== '34')
    return refuse(`es un documento tipo ${type ?? '(sin tipo)'}, no una factura electrónica (33 o 34)`);
  const folio = leaf(idDoc, 'Folio');
  if (folio === null || !/^[1-9]\d{0,9}$/.test(folio)) return refuse('el folio no es válido');
  const issueDate = leaf(idDoc, 'FchEmis');
  if (issueDate === null || !isCalendarDate(issueDate)) return refuse('la fecha de emisión no es válida');
  const issuerRut = normalizeRut(leaf(issuer, 'RUTEmisor') ?? '');
  if (issuerRut === null) return refuse('el RUT del emisor no es válido');

  // Whole pesos; an element the type needs must be there ('' stands for one absent but optional).
  const amount = (name: string, required: boolean): string | null => {
    const value = leaf(totals, name);
    if (value === null) return required ? null : '';
    return WHOLE_PESOS.test(value) ? String(Number(value)) : null;
  };
  const net = amount('MntNeto', type === '33');
  const exempt = amount('MntExe', type === '34');
  const vat = amount('IVA', type === '33');
  const total = amount('MntTotal', true);
  if (net === null || exempt === null || vat === null || total === null)
    return refuse('los montos de Totales no son montos en pesos');
  return {
    ok: true,
    invoice: {
      kind: type === '33' ? 'taxed' : 'exempt',
      issuerRut,
      folio,
      issueDate,
      // An exenta's net is its exempt amount (it has no MntNeto): what the office reads on it.
      netAmount: type === '33' ? net : exempt,
      vatAmount: vat || '0',
      totalAmount: total,
    },
  };
}
