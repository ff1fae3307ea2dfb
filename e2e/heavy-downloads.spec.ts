import { mkdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';

// Issue 52 (decision 0050): a heavy download the server refuses (one export at a time per user) shows
// the server's Spanish words as a notification — no broken file is saved — and a later click downloads.

const SHOTS = '.tmp/shots/heavy-downloads';
const BUSY = 'Ya hay una exportación en curso; intente en un momento.';

for (const width of [1440, 390]) {
  test(`una exportación rechazada se avisa con el mensaje del servidor, sin descargar nada (${width} px)`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/configuracion/auditoria');
    const link = page.getByRole('link', { name: 'Exportar CSV' });
    await expect(link).toBeVisible();
    // The server's refusal as the limiter answers it, for this one click.
    await page.route('**/api/audit/export?**', (route) =>
      route.fulfill({
        status: 429,
        headers: { 'content-type': 'application/json; charset=utf-8', 'retry-after': '5' },
        body: JSON.stringify({ error: { code: 'HEAVY_EXPORT_BUSY', message: BUSY } }),
      }),
    );
    const downloads: string[] = [];
    page.on('download', (download) => downloads.push(download.suggestedFilename()));
    await link.click();
    await expect(page.getByText(BUSY)).toBeVisible();
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: `${SHOTS}/refused-${width}.png` });
    expect(downloads).toEqual([]);

    await page.unroute('**/api/audit/export?**');
    const [file] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(file.suggestedFilename()).toMatch(/^auditoria_\d{4}-\d{2}-\d{2}\.csv$/);
  });
}
