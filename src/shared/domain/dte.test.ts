import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeXmlBytes, readDte } from './dte';

const FIXTURE = join(__dirname, '../../server/features/broker-invoices/fixtures/dte-33-76543210.xml');
const fixture = () => decodeXmlBytes(readFileSync(FIXTURE));

describe('readDte', () => {
  it('reads the SII fixture (ISO-8859-1, namespaced, signed)', () => {
    const text = fixture();
    expect(text).toContain('Peñalolén');
    expect(readDte(text)).toEqual({
      ok: true,
      invoice: {
        kind: 'taxed',
        issuerRut: '76543210-3',
        folio: '1234',
        issueDate: '2026-11-16',
        netAmount: '3361345',
        vatAmount: '638656',
        totalAmount: '4000001',
      },
    });
  });

  it('reads an exenta (34) from MntExe, with no IVA', () => {
    const exempt = fixture()
      .replace('<TipoDTE>33</TipoDTE>', '<TipoDTE>34</TipoDTE>')
      .replace(/<MntNeto>.*<\/MntNeto>/, '<MntExe>4000000</MntExe>')
      .replace(/<TasaIVA>.*<\/TasaIVA>\s*<IVA>.*<\/IVA>/, '')
      .replace('<MntTotal>4000001</MntTotal>', '<MntTotal>4000000</MntTotal>');
    expect(readDte(exempt)).toMatchObject({
      ok: true,
      invoice: { kind: 'exempt', netAmount: '4000000', vatAmount: '0', totalAmount: '4000000' },
    });
  });

  it('reads the one document of an EnvioDTE, with prefixes', () => {
    const dte = fixture().replace(/^<\?xml[^>]*>\s*/, '');
    const envelope = `<?xml version="1.0"?><sii:EnvioDTE xmlns:sii="http://www.sii.cl/SiiDte"><sii:SetDTE>${dte.replace(
      /<(\/?)(\w+)/g,
      '<$1sii:$2',
    )}</sii:SetDTE></sii:EnvioDTE>`;
    expect(readDte(envelope)).toMatchObject({ ok: true, invoice: { folio: '1234' } });
  });

  it('refuses what is not an electronic invoice', () => {
    const reason = (text: string) => {
      const reading = readDte(text);
      return reading.ok ? null : reading.reason;
    };
    expect(reason('hola')).toBe('el archivo no es XML');
    expect(reason('<?xml version="1.0"?><html><body/></html>')).toBe(
      'no es un documento tributario electrónico del SII',
    );
    expect(reason(fixture().replace('<TipoDTE>33</TipoDTE>', '<TipoDTE>39</TipoDTE>'))).toBe(
      'es un documento tipo 39, no una factura electrónica (33 o 34)',
    );
    expect(reason(`<!DOCTYPE x [<!ENTITY a "b">]>${fixture()}`)).toBe(
      'el XML declara entidades o un DOCTYPE',
    );
    expect(reason(fixture().replace('<Folio>1234</Folio>', '<Folio>-3</Folio>'))).toBe(
      'el folio no es válido',
    );
    expect(reason(fixture().replace('2026-11-16</FchEmis>', '2026-02-30</FchEmis>'))).toBe(
      'la fecha de emisión no es válida',
    );
    expect(reason(fixture().replace('<RUTEmisor>76543210-3', '<RUTEmisor>76543210-4'))).toBe(
      'el RUT del emisor no es válido',
    );
    expect(reason(fixture().replace('<IVA>638656</IVA>', '<IVA>-638656</IVA>'))).toBe(
      'los montos de Totales no son montos en pesos',
    );
    const two = fixture().replace('</Documento>', '</Documento><Documento ID="B"><Encabezado/></Documento>');
    expect(reason(two)).toBe('trae 2 documentos; suba el XML de esta factura sola');
  });
});

describe('readDte on hostile files (one linear pass, bounded)', () => {
  const reason = (text: string) => {
    const reading = readDte(text);
    return reading.ok ? null : reading.reason;
  };
  const KB256 = 256 * 1024;

  it('refuses an unclosed comment repeated to 256 KB, and thousands of unclosed documents', () => {
    expect(reason(`<DTE>${'<!--'.repeat(KB256 / 4)}`)).toMatch(/^el XML está mal formado \(línea \d+\)$/);
    expect(reason(`<DTE>${'<Documento>'.repeat(KB256 / 11)}`)).toBe('anida más de 32 niveles de elementos');
    expect(reason(`<DTE>${'<Documento/>'.repeat(KB256 / 12)}`)).toBe('tiene más de 10.000 elementos');
    expect(reason(`<DTE><Documento>${'x'.repeat(KB256)}</Documento></DTE>`)).toBe(
      'tiene un texto de más de 65.536 caracteres',
    );
    expect(reason(`<DTE>${' '.repeat(1024 * 1024)}</DTE>`)).toBe(
      'el archivo es demasiado grande para una factura',
    );
  });

  it('refuses character references beyond Unicode, NUL bytes and unclosed tags as malformed', () => {
    const folio = (text: string) => fixture().replace('<Folio>1234</Folio>', `<Folio>${text}</Folio>`);
    expect(reason(folio('&#x110000;'))).toMatch(/^el XML está mal formado/);
    expect(reason(folio('&#99999999999;'))).toMatch(/^el XML está mal formado/);
    expect(reason(folio('12\u000034'))).toMatch(/^el XML está mal formado/);
    expect(reason(folio('&nada;'))).toMatch(/^el XML está mal formado/);
    expect(reason(fixture().replace('</DTE>', ''))).toMatch(/^el XML está mal formado/);
    // A reference to a real character is read.
    expect(readDte(folio('&#49;234'))).toMatchObject({ ok: true, invoice: { folio: '1234' } });
  });

  it('expands nothing: XXE and billion laughs are refused at their DOCTYPE', () => {
    const xxe = `<?xml version="1.0"?><!DOCTYPE DTE [<!ENTITY x SYSTEM "file:///etc/passwd">]><DTE><Documento>&x;</Documento></DTE>`;
    expect(reason(xxe)).toBe('el XML declara entidades o un DOCTYPE');
    const lol = Array.from({ length: 9 }, (_, n) => `<!ENTITY lol${n + 1} "${`&lol${n};`.repeat(10)}">`).join(
      '',
    );
    const laughs = `<?xml version="1.0"?><!DOCTYPE DTE [<!ENTITY lol0 "lol">${lol}]><DTE>&lol9;</DTE>`;
    expect(reason(laughs)).toBe('el XML declara entidades o un DOCTYPE');
  });

  it('reads the same invoice from ISO-8859-1 and UTF-8 bytes, with comments and CDATA in its fields', () => {
    const latin = readFileSync(FIXTURE);
    const utf8 = Buffer.from(
      decodeXmlBytes(latin).replace('encoding="ISO-8859-1"', 'encoding="UTF-8"'),
      'utf8',
    );
    expect(latin.includes(Buffer.from('Peñalolén', 'latin1'))).toBe(true);
    expect(utf8.includes(Buffer.from('Peñalolén', 'utf8'))).toBe(true);
    expect(readDte(decodeXmlBytes(utf8))).toEqual(readDte(decodeXmlBytes(latin)));
    const commented = fixture().replace('<Folio>1234</Folio>', '<Folio>12<!-- x -->3<![CDATA[4]]></Folio>');
    expect(readDte(commented)).toMatchObject({ ok: true, invoice: { folio: '1234' } });
    // A field holding markup is not a value.
    expect(reason(fixture().replace('<Folio>1234</Folio>', '<Folio><b>1234</b></Folio>'))).toBe(
      'el folio no es válido',
    );
  });

  it('answers a reading, never an exception, for any text', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 300 }),
          fc
            .array(
              fc.constantFrom(
                '<DTE>',
                '<Documento>',
                '</Documento>',
                '<!--',
                '-->',
                '&#x110000;',
                '<![CDATA[',
                ']]>',
                '<',
                '&',
                'x',
                '\u0000',
              ),
              { maxLength: 60 },
            )
            .map((parts) => parts.join('')),
        ),
        (text) => {
          const reading = readDte(text);
          expect(typeof reading.ok).toBe('boolean');
        },
      ),
    );
  });
});
