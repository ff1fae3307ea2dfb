import { notifications } from '@mantine/notifications';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { download, fileNameOf } from './download';

// The page's notification, as `lib/notify.ts` shows it (through @mantine/notifications, loaded lazily).
function notified(message: string) {
  return vi.waitFor(() =>
    expect(notifications.show).toHaveBeenCalledWith(expect.objectContaining({ color: 'red', message })),
  );
}

describe('heavy downloads fetched by the page (decision 0050)', () => {
  const clicked: { href: string; download: string }[] = [];
  beforeEach(() => {
    vi.spyOn(notifications, 'show').mockImplementation(() => 'id');
    clicked.length = 0;
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.href, download: this.download });
    });
    URL.createObjectURL = vi.fn(() => 'blob:http://localhost/archivo');
    URL.revokeObjectURL = vi.fn();
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it('shows a refusal (the polite 429) as a notification with the server’s words, and saves no file', async () => {
    const body = {
      error: {
        code: 'HEAVY_EXPORT_BUSY',
        message: 'Ya hay una exportación en curso; intente en un momento.',
      },
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify(body), { status: 429, headers: { 'retry-after': '5' } })),
    );
    await download('/api/audit/export?format=csv');
    await notified('Ya hay una exportación en curso; intente en un momento.');
    expect(clicked).toEqual([]);
  });

  it('says so when the server cannot be reached', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    await download('/api/audit/export?format=csv');
    await notified('No se pudo conectar con el servidor.');
    expect(clicked).toEqual([]);
  });

  it('saves a file that came under the name the server gave it', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response('a;b\r\n', {
            status: 200,
            headers: { 'content-disposition': 'attachment; filename="auditoria_2027-03-12.csv"' },
          }),
      ),
    );
    await download('/api/audit/export?format=csv');
    await Promise.resolve();
    expect(notifications.show).not.toHaveBeenCalled();
    expect(clicked).toEqual([
      { href: 'blob:http://localhost/archivo', download: 'auditoria_2027-03-12.csv' },
    ]);
  });

  it('reads the name of Content-Disposition, the UTF-8 one first', () => {
    expect(
      fileNameOf(
        'attachment; filename="Comprobante_firmado.pdf"; filename*=UTF-8\'\'Comprobante%20firmado.pdf',
        'x',
      ),
    ).toBe('Comprobante firmado.pdf');
    expect(fileNameOf('attachment; filename="nomina.csv"', 'x')).toBe('nomina.csv');
    expect(fileNameOf(null, 'export')).toBe('export');
  });
});
