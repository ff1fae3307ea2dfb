import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { readBackupHeader, writeBackupFile } from '../src/server/features/backups/backup-file';
import { backupFileName } from '../src/server/features/backups/backups.service';
import { santiagoDateOf } from '../src/shared/format';
import { ACCOUNTS, SIGNED_OUT, signIn } from './fixtures';

/** The e2e server's backup directory (scripts/e2e-server.mjs: DATA_DIR=.tmp/e2e-data, BACKUP_DIR unset). */
const BACKUP_DIR = '.tmp/e2e-data/backups';

test.describe.configure({ mode: 'serial' });

test.describe('Respaldos', () => {
  test('the dashboard warns administrators when the last good backup is more than 26 hours old', async ({
    page,
  }) => {
    // Arranged on the server's disk: its only backup is a complete one taken 30 hours ago.
    mkdirSync(BACKUP_DIR, { recursive: true });
    for (const name of readdirSync(BACKUP_DIR, { withFileTypes: true }).filter((entry) => entry.isFile())) {
      rmSync(join(BACKUP_DIR, name.name));
    }
    const source = mkdtempSync(join(tmpdir(), 'inmoflujo-e2e-backup-'));
    writeFileSync(join(source, 'PG_VERSION'), '17\n');
    const createdAt = new Date(Date.now() - 30 * 3_600_000);
    await writeBackupFile({
      source,
      target: join(BACKUP_DIR, backupFileName(createdAt, 'nightly')),
      kind: 'nightly',
      createdAt,
      schema: { migrations: 0, last: null },
    });
    rmSync(source, { recursive: true, force: true });

    await page.goto('/dashboard');
    const warning = page.getByTestId('backup-warning');
    await expect(warning).toContainText('Respaldo atrasado');
    await expect(warning).toContainText('(hace 30 horas)');
    await warning.getByRole('link', { name: 'Ir a Respaldos' }).click();
    await expect(page).toHaveURL(/\/configuracion\/respaldos$/);
    await expect(page.getByRole('row').filter({ hasText: 'Nocturno' })).toHaveCount(1);
  });

  test('an administrator creates a backup and downloads it; the warning goes away', async ({ page }) => {
    // A whole database is copied and compressed: on a busy machine that is more than the usual wait.
    test.setTimeout(240_000);
    await page.goto('/configuracion/respaldos');
    await expect(page.getByText('Los respaldos están en el mismo disco que los datos')).toBeVisible();
    await page.getByRole('button', { name: 'Crear respaldo ahora' }).click();
    await expect(page.getByText('Respaldo creado')).toBeVisible({ timeout: 180_000 });
    const row = page.getByRole('row').filter({ hasText: 'Manual' });
    await expect(row).toHaveCount(1);

    const download = page.waitForEvent('download');
    await row.getByRole('link', { name: /Descargar respaldo del/ }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^inmoflujo-\d{8}T\d{9}Z-manual\.backup$/);
    const saved = join(test.info().outputDir, file.suggestedFilename());
    await file.saveAs(saved);
    // A complete backup of the real database: its header reads, with the schema's migrations.
    const { header } = await readBackupHeader(saved);
    expect(header.kind).toBe('manual');
    expect(header.schema.migrations).toBeGreaterThan(20);

    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
    await expect(page.getByTestId('backup-warning')).toHaveCount(0);
  });

  test('after a suppression Respaldos says the scrub is pending; a backup scrubs first and says when', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(240_000);
    const headers = { origin: baseURL ?? '' };
    const rut = '17.246.813-6';
    const created = await page.request.post('/api/clients', {
      headers,
      data: { rut, firstName: 'Zenobia', lastName: 'Wuthrich', birthDate: '1979-02-23' },
    });
    expect(created.status()).toBe(201);
    const registered = await page.request.post('/api/data-requests', {
      headers,
      data: { kind: 'suppression', holderRut: rut, receivedDate: santiagoDateOf(new Date()) },
    });
    expect(registered.status()).toBe(201);
    const { request } = await registered.json();
    const suppressed = await page.request.post(`/api/data-requests/${request.id}/suppress`, {
      headers,
      data: { confirmation: 'SUPRIMIR' },
    });
    expect(suppressed.status()).toBe(200);

    await page.goto('/configuracion/respaldos');
    await expect(page.getByText('Los respaldos no están cifrados')).toBeVisible();
    await expect(page.getByText('BACKUP_KEY').first()).toBeVisible();
    const pending = page.locator('[data-scrub="pending"]');
    await expect(pending).toContainText('Una supresión de datos personales');
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: `.tmp/screens/respaldos-pendiente-${width}.png`, fullPage: true });
    }
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.getByRole('button', { name: 'Crear respaldo ahora' }).click();
    await expect(page.getByText('Respaldo creado')).toBeVisible({ timeout: 180_000 });
    await expect(page.locator('[data-scrub="done"]')).toContainText(
      'Datos suprimidos borrados de los archivos de la base de datos el',
    );
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: `.tmp/screens/respaldos-borrado-${width}.png`, fullPage: true });
    }
  });

  test('other users see no Respaldos tab and no warning', async ({ browser }) => {
    const context = await browser.newContext(SIGNED_OUT);
    const page = await context.newPage();
    await signIn(page, ACCOUNTS.kam);
    await expect(page.getByTestId('backup-warning')).toHaveCount(0);
    await page.goto('/configuracion/respaldos');
    await expect(page.getByRole('alert')).toHaveText('No tiene permisos para realizar esta acción.');
    await context.close();
  });
});
