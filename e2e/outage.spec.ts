import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { freePort, startServer, stopServer } from '../scripts/server-process';
import { SIGNED_OUT, signIn, uniqueRut } from './fixtures';

// Issue 28 §1: an outage noticed while nobody clicks. A server of this journey's own (the built one,
// on a fresh embedded database) is really stopped — not a route faked in the browser — while
// /clientes sits idle; the broken live stream starts the connection monitor.

test.use(SIGNED_OUT);

test('con /clientes abierta y sin tocar nada, la caída del servidor se avisa en segundos y la pantalla vuelve sola', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'inmoflujo-outage-'));
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  let server: ChildProcess | null = await startServer(port, { dataDir });
  const context = await browser.newContext({
    baseURL: origin,
    locale: 'es-CL',
    timezoneId: 'America/Santiago',
  });
  try {
    const account = {
      firstName: 'Olga',
      lastName: 'Vera',
      position: 'Gerenta',
      email: 'olga.vera@inmoflujo.test',
      password: 'clave-de-olga-2026',
    };
    const registered = await context.request.post('/api/auth/register', {
      headers: { origin },
      data: account,
    });
    expect(registered.status(), await registered.text()).toBe(201);
    const page = await context.newPage();
    // The page's timers on Playwright's clock: the outage's 20 s pass in steps, not in real seconds.
    await page.clock.install();
    await signIn(page, account);
    const client = await page.request.post('/api/clients', {
      headers: { origin },
      data: { rut: uniqueRut(), firstName: 'Rosa', lastName: 'Pino Ulloa', birthDate: '1984-02-02' },
    });
    expect(client.status(), await client.text()).toBe(201);
    await page.goto('/clientes');
    await expect(page.getByText('Rosa Pino Ulloa')).toBeVisible();
    const banner = page.getByTestId('connection-banner');
    await expect(banner).toHaveCount(0);

    let requests = 0;
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/')) requests += 1;
    });
    await stopServer(server);
    server = null;
    // Nobody clicks: the stream's loss alone brings the banner, within 15 s.
    await expect(banner).toContainText('Intentando reconectar...', { timeout: 15_000 });
    // One probe at a time with the back-off (four in 20 s), the stream's own retries beside it: no flood.
    for (let second = 0; second < 20; second++) await page.clock.runFor(1_000);
    expect(requests).toBeLessThanOrEqual(20);

    // The server comes back (the same data): the banner goes and the screen reloads by itself.
    server = await startServer(port, { dataDir });
    // The next probe is at most 10 s on.
    await page.clock.runFor(10_000);
    await expect(banner).toHaveCount(0, { timeout: 30_000 });
    await expect(page.getByText('Rosa Pino Ulloa')).toBeVisible();
  } finally {
    await context.close();
    if (server) await stopServer(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
});
