import { SaxesParser } from 'saxes';
import { normalizeRut } from './rut';
import { isCalendarDate } from './uf';

/**
 * The SII's electronic invoice (DTE, Documento Tributario Electrónico) read for the few fields the
 * invoice check needs (decision 0039): issuer RUT, type (33 afecta, 34 exenta), folio, issue date
 * and totals, which sit at fixed places of the SII's schema (`DTE/Documento/Encabezado/{IdDoc,
 * Emisor,Totales}`). One linear pass of saxes, a non-validating streaming parser that never reads a
 * DTD nor expands an entity (decision 0049): a DOCTYPE is refused as soon as it is met, and the pass
 * is bounded in size, depth, elements and text, each refusal a Spanish reason. It refuses a file with
 * no document or several, and any field that is not what the schema says.
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

const WHOLE_PESOS = /^\d{1,14}$/;

/** What one pass may read: far above a signed DTE (a few hundred elements, six levels, 4 KB texts). */
export const DTE_LIMITS = {
  /** Characters of the whole text (the upload itself is at most 256 KB). */
  characters: 1024 * 1024,
  depth: 32,
  elements: 10_000,
  /** Characters of one text between tags (a certificate in base64 is a few thousand). */
  text: 64 * 1024,
} as const;

/** A refusal met during the pass: the pass stops there. */
class Refusal extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** The fields read, by their path under the document (`Encabezado/IdDoc/TipoDTE`). */
const FIELDS = [
  'Encabezado/IdDoc/TipoDTE',
  'Encabezado/IdDoc/Folio',
  'Encabezado/IdDoc/FchEmis',
  'Encabezado/Emisor/RUTEmisor',
  'Encabezado/Totales/MntNeto',
  'Encabezado/Totales/MntExe',
  'Encabezado/Totales/IVA',
  'Encabezado/Totales/MntTotal',
] as const;
type FieldPath = (typeof FIELDS)[number];
const SECTIONS = ['Encabezado/IdDoc', 'Encabezado/Emisor', 'Encabezado/Totales'];

const localName = (name: string) => name.slice(name.indexOf(':') + 1);
const thousands = (value: number) => value.toLocaleString('es-CL');

interface Pass {
  documents: number;
  /** The first document's fields: its text, or null when the element holds markup. */
  fields: Map<FieldPath, string | null>;
  sections: Set<string>;
}

/**
 * The single pass: the root named at once, a DOCTYPE refused when met, and every limit counted as
 * the elements open. Only the first document's fields are kept (the others are counted).
 */
function scan(xml: string): Pass {
  const parser = new SaxesParser({ xmlns: false, position: true });
  const pass: Pass = { documents: 0, fields: new Map(), sections: new Set() };
  /** Local names from the root down to the element being read. */
  const stack: string[] = [];
  /** Where the first document starts in `stack` (-1: outside it). */
  let documentDepth = -1;
  let elements = 0;
  /** The field being read, and its text so far. */
  let field: { path: FieldPath; depth: number; text: string; hasMarkup: boolean } | null = null;
  const relativePath = () => stack.slice(documentDepth + 1).join('/');
  parser.on('doctype', () => {
    throw new Refusal('el XML declara entidades o un DOCTYPE');
  });
  parser.on('opentag', (tag) => {
    const name = localName(tag.name);
    if (stack.length === 0 && name !== 'DTE' && name !== 'EnvioDTE')
      throw new Refusal('no es un documento tributario electrónico del SII');
    elements += 1;
    if (elements > DTE_LIMITS.elements)
      throw new Refusal(`tiene más de ${thousands(DTE_LIMITS.elements)} elementos`);
    if (field) field.hasMarkup = true;
    stack.push(name);
    if (stack.length > DTE_LIMITS.depth)
      throw new Refusal(`anida más de ${DTE_LIMITS.depth} niveles de elementos`);
    if (name === 'Documento' && documentDepth < 0) {
      pass.documents += 1;
      if (pass.documents === 1) documentDepth = stack.length - 1;
      return;
    }
    if (documentDepth < 0 || field) return;
    const path = relativePath();
    if (SECTIONS.includes(path)) pass.sections.add(path);
    if ((FIELDS as readonly string[]).includes(path) && !pass.fields.has(path as FieldPath))
      field = { path: path as FieldPath, depth: stack.length, text: '', hasMarkup: false };
  });
  const onText = (text: string) => {
    if (text.length > DTE_LIMITS.text)
      throw new Refusal(`tiene un texto de más de ${thousands(DTE_LIMITS.text)} caracteres`);
    if (field) {
      field.text += text;
      if (field.text.length > DTE_LIMITS.text)
        throw new Refusal(`tiene un texto de más de ${thousands(DTE_LIMITS.text)} caracteres`);
    }
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('closetag', () => {
    if (field && field.depth === stack.length) {
      pass.fields.set(field.path, field.hasMarkup ? null : field.text.trim());
      field = null;
    }
    stack.pop();
    if (stack.length === documentDepth) documentDepth = -2;
  });
  // saxes words its errors in English: only where the first one happened is told.
  parser.on('error', () => {
    throw new Refusal(`el XML está mal formado (línea ${parser.line})`);
  });
  parser.write(xml).close();
  return pass;
}

/** Reads a DTE (alone, or the one document of an EnvioDTE); refuses anything else in Spanish. */
export function readDte(text: string): DteReading {
  const refuse = (reason: string): DteReading => ({ ok: false, reason });
  const xml = text.startsWith('\uFEFF') ? text.slice(1) : text;
  if (xml.length > DTE_LIMITS.characters) return refuse('el archivo es demasiado grande para una factura');
  if (!/^\s*</.test(xml)) return refuse('el archivo no es XML');
  let pass: Pass;
  try {
    pass = scan(xml);
  } catch (error) {
    if (error instanceof Refusal) return refuse(error.reason);
    throw error;
  }
  if (pass.documents === 0) return refuse('no es un documento tributario electrónico del SII');
  if (pass.documents > 1)
    return refuse(`trae ${pass.documents} documentos; suba el XML de esta factura sola`);
  if (SECTIONS.some((section) => !pass.sections.has(section)))
    return refuse('le falta el encabezado (IdDoc, Emisor o Totales)');
  const leaf = (path: FieldPath) => pass.fields.get(path) ?? null;

  const type = leaf('Encabezado/IdDoc/TipoDTE');
  if (type !== '33' && type !== '34')
    return refuse(`es un documento tipo ${type || '(sin tipo)'}, no una factura electrónica (33 o 34)`);
  const folio = leaf('Encabezado/IdDoc/Folio');
  if (folio === null || !/^[1-9]\d{0,9}$/.test(folio)) return refuse('el folio no es válido');
  const issueDate = leaf('Encabezado/IdDoc/FchEmis');
  if (issueDate === null || !isCalendarDate(issueDate)) return refuse('la fecha de emisión no es válida');
  const issuerRut = normalizeRut(leaf('Encabezado/Emisor/RUTEmisor') ?? '');
  if (issuerRut === null) return refuse('el RUT del emisor no es válido');

  // Whole pesos; an element the type needs must be there ('' stands for one absent but optional).
  const amount = (name: 'MntNeto' | 'MntExe' | 'IVA' | 'MntTotal', required: boolean): string | null => {
    const path = `Encabezado/Totales/${name}` as const;
    if (!pass.fields.has(path)) return required ? null : '';
    const value = leaf(path);
    return value !== null && WHOLE_PESOS.test(value) ? String(Number(value)) : null;
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
