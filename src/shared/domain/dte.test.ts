import { readFileSync } from 'node:fs';
import { join } from 'node:path';
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
