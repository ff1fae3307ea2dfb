import { expect, type Page, test } from '@playwright/test';
import sharp from 'sharp';
import { formatRut } from '../src/shared/domain/rut';
import { ACCOUNTS, signIn, uniqueRut, uniqueText } from './fixtures';

/**
 * Configuración on the e2e database. This file changes settings every journey reads (the default
 * seller, default assignees), so playwright.config.ts runs it after the other journeys, and it puts
 * them back as it found them.
 */

async function pngFile(name: string) {
  const buffer = await sharp({
    create: { width: 120, height: 80, channels: 3, background: { r: 30, g: 110, b: 190 } },
  })
    .png()
    .toBuffer();
  return { name, mimeType: 'image/png', buffer };
}

/** Chooses an image through the picker's button (a file chooser, as a user would). */
async function chooseImage(page: Page, file: Awaited<ReturnType<typeof pngFile>>) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Seleccionar imagen' }).click();
  await (await chooser).setFiles(file);
}

async function pickOption(page: Page, combobox: string, option: string | RegExp) {
  await page.getByRole('combobox', { name: combobox }).click();
  await page.getByRole('option', { name: option }).click();
}

interface Defaults {
  defaultSellerId: string | null;
  saleTaskId: string;
  saleTaskAssignees: string[];
  vbTaskId: string;
  vbAssignees: string[];
}

const SALE_TASK = 'PENDIENTE VB PROMESA';
const VB_TASK = 'VB Jefe Inversiones';

async function readDefaults(page: Page): Promise<Defaults> {
  const sale = await (await page.request.get('/api/settings/sale-flow')).json();
  const payment = await (await page.request.get('/api/settings/payment-flows')).json();
  type Task = { id: string; name: string; defaultAssigneeIds: string[] };
  const tasksOf = (workflow: { stages: { tasks: Task[] }[] }) =>
    workflow.stages.flatMap((stage) => stage.tasks);
  const saleTask = tasksOf(sale.workflow).find((task) => task.name === SALE_TASK)!;
  const vbTask = tasksOf(payment.workflows[0]).find((task) => task.name === VB_TASK)!;
  return {
    defaultSellerId: sale.defaultSellerId,
    saleTaskId: saleTask.id,
    saleTaskAssignees: saleTask.defaultAssigneeIds,
    vbTaskId: vbTask.id,
    vbAssignees: vbTask.defaultAssigneeIds,
  };
}

async function restoreDefaults(page: Page, defaults: Defaults) {
  const headers = { origin: new URL(page.url()).origin };
  await page.request.put('/api/settings/default-seller', {
    headers,
    data: { userId: defaults.defaultSellerId },
  });
  for (const [taskId, userIds] of [
    [defaults.saleTaskId, defaults.saleTaskAssignees],
    [defaults.vbTaskId, defaults.vbAssignees],
  ] as const) {
    await page.request.put(`/api/settings/workflow-tasks/${taskId}/default-assignees`, {
      headers,
      data: { userIds },
    });
  }
}

test.describe('configuración', () => {
  test('un administrador deja lista una instalación: inmobiliaria, proyecto con logo, usuario con avatar y responsables por defecto', async ({
    page,
    browser,
  }) => {
    test.setTimeout(240_000);
    const word = uniqueText('').trim();
    const agencyName = `Inmobiliaria Quillay ${word} SpA`;
    const projectName = `Mirador ${word}`;
    const email = `paula.${word}@inmoflujo.test`.toLowerCase();
    const password = 'clave-de-paula-2026';
    const userName = `Paula ${word}`;

    await page.goto('/configuracion');
    await expect(page).toHaveURL(/\/configuracion\/proyectos$/);
    const defaults = await readDefaults(page);

    try {
      // --- Inmobiliaria ------------------------------------------------------------------------
      await page.getByRole('tab', { name: 'Inmobiliarias' }).click();
      await expect(page).toHaveURL(/\/configuracion\/inmobiliarias$/);
      await page.reload();
      await expect(page.getByRole('tab', { name: 'Inmobiliarias' })).toHaveAttribute('aria-selected', 'true');
      await page.getByRole('link', { name: 'Nueva Inmobiliaria' }).click();
      await expect(page.getByRole('heading', { name: 'Nueva Inmobiliaria' })).toBeVisible();
      await page.getByRole('button', { name: 'Guardar' }).click();
      await expect(page.getByText('La razón social es obligatoria')).toBeVisible();
      const rut = uniqueRut();
      await page.getByLabel('RUT').fill(rut.replace('-', ''));
      await page.getByLabel('Razón Social').fill(agencyName);
      await page.getByLabel('Banco').fill('Banco de Chile');
      await pickOption(page, 'Tipo de Cuenta', 'Cuenta Corriente');
      await page.getByLabel('Número de Cuenta').fill('00-123-45678-09');
      await page.getByRole('button', { name: 'Guardar' }).click();
      await expect(page).toHaveURL(/\/configuracion\/inmobiliarias$/);
      const search = page.getByRole('searchbox');
      await search.fill(formatRut(rut));
      await search.press('Enter');
      await expect(page.getByRole('row').filter({ hasText: agencyName })).toBeVisible();

      // --- Proyecto con logo ---------------------------------------------------------------------
      await page.getByRole('tab', { name: 'Proyectos' }).click();
      await page.getByRole('link', { name: 'Nuevo Proyecto' }).click();
      await expect(page.getByRole('heading', { name: 'Nuevo Proyecto' })).toBeVisible();
      await page.getByLabel('Nombre').fill(projectName);
      await expect(page.getByLabel('Nombre')).toHaveValue(projectName);
      await page.getByLabel('Etapa').fill('Etapa 1');
      await page.getByLabel('Comuna').fill('Ñuñoa');
      await page.getByLabel('Fecha de Entrega').fill('30/06/2031');
      await page.keyboard.press('Escape');
      await pickOption(page, 'Inmobiliaria', new RegExp(`^${agencyName}`));
      // Installments follow the deadline (computed in the form as on the server).
      await expect(page.getByLabel('Cuotas')).not.toHaveValue('');
      await chooseImage(page, await pngFile('logo-mirador.png'));
      await expect(page.getByText('logo-mirador.png: se guardará al guardar el formulario')).toBeVisible();
      await page.getByRole('button', { name: 'Guardar' }).click();
      await expect(page).toHaveURL(/\/configuracion\/proyectos$/);
      await search.fill(projectName);
      await search.press('Enter');
      const projectRow = page.getByRole('row').filter({ hasText: projectName });
      await expect(projectRow).toContainText('Futura');
      const logo = projectRow.getByRole('img', { name: `Logo de ${projectName}` });
      await expect(logo).toHaveAttribute('src', /^\/api\/files\/[0-9a-f-]+\.webp$/);
      await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

      // --- Usuario Gestor de Pagos con avatar ----------------------------------------------------
      await page.getByRole('tab', { name: 'Usuarios' }).click();
      await page.getByRole('link', { name: 'Nuevo Usuario' }).click();
      await expect(page.getByRole('heading', { name: 'Nuevo Usuario' })).toBeVisible();
      await page.getByLabel('Correo Electrónico').fill(email);
      await page.getByLabel('Contraseña').fill(password);
      await page.getByLabel('Nombres').fill(userName);
      await page.getByLabel('Apellidos').fill('Gestora');
      await page.getByLabel('Cargo').fill('Gestora de Pagos');
      await pickOption(page, 'Tipo de Usuario', 'Gestor de Pagos');
      await page.getByRole('checkbox', { name: 'Vendedor' }).check();
      await chooseImage(page, await pngFile('paula.png'));
      await page.getByRole('button', { name: 'Guardar' }).click();
      await expect(page).toHaveURL(/\/configuracion\/usuarios$/);
      await page.getByRole('searchbox').fill(word);
      const userRow = page.getByRole('row').filter({ hasText: email });
      await expect(userRow).toContainText('Gestor de Pagos');
      await expect(userRow.getByRole('img', { name: `${userName} Gestora` })).toHaveAttribute(
        'src',
        /^\/api\/files\/[0-9a-f-]+\.webp$/,
      );

      // She signs in (a browser of her own).
      const hers = await browser.newContext({ storageState: { cookies: [], origins: [] } });
      const herPage = await hers.newPage();
      await herPage.goto('/login');
      await herPage.getByLabel('Correo Electrónico').fill(email);
      await herPage.getByLabel('Contraseña').fill(password);
      await herPage.getByRole('button', { name: 'Iniciar Sesión' }).click();
      await expect(herPage).toHaveURL(/\/dashboard$/);

      // --- Responsables por defecto ---------------------------------------------------------------
      const fullName = `${userName} Gestora`;
      await page.getByRole('tab', { name: 'Configuración Flujo Venta' }).click();
      await pickOption(page, 'Vendedor por defecto', fullName);
      await expect(page.getByText('Vendedor por defecto actualizado')).toBeVisible();
      await page.getByRole('button', { name: `Asignar responsables a ${SALE_TASK}` }).click();
      const dialog = page.getByRole('dialog', { name: 'Responsables por defecto' });
      await dialog.getByLabel('Buscar usuario').fill(word);
      await dialog.getByRole('checkbox', { name: fullName }).check();
      await dialog.getByRole('button', { name: 'Guardar' }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByRole('region', { name: 'Promesa' })).toContainText(fullName);

      await page.getByRole('tab', { name: 'Configuración Flujo Pago' }).click();
      await pickOption(page, `Responsable por defecto de ${VB_TASK}`, fullName);
      await expect(page.getByText(`Responsable de '${VB_TASK}' actualizado`)).toBeVisible();
      await page.reload();
      await expect(
        page.getByRole('combobox', { name: `Responsable por defecto de ${VB_TASK}` }).first(),
      ).toHaveValue(fullName);

      // --- Una reserva nueva: el vendedor propuesto y la tarea con su responsable --------------------
      const origin = new URL(page.url()).origin;
      const client = await page.request.post('/api/clients', {
        headers: { origin },
        data: { rut: uniqueRut(), firstName: 'Tomás', lastName: `Quiroga ${word}`, birthDate: '1985-03-02' },
      });
      expect(client.status()).toBe(201);
      await page.goto('/reservas/nueva');
      await page.getByLabel('Buscar cliente').fill(`Tomás Quiroga ${word}`);
      await page.getByRole('listitem').filter({ hasText: word }).click();
      await expect(page.getByRole('combobox', { name: 'Vendedor' })).toHaveValue(fullName);
      await page.getByLabel('N° de reserva').fill(`R-${word}`);
      await pickOption(page, 'Proyecto', `${projectName} · Etapa 1`);
      await page.getByLabel('N° departamento').fill('1001');
      await page.getByLabel('Precio departamento').fill('3000');
      await page.getByLabel('Crédito hipotecario').fill('3000');
      await page.getByRole('button', { name: 'Crear Reserva' }).click();
      await expect(page).toHaveURL(/\/reservas$/);

      // Her bell counts the tasks given to her: the three COF tasks (seller) and the default one.
      await herPage.reload();
      await expect(herPage.getByTestId('bell-badge')).toHaveText('4');

      // --- Desactivada: su sesión abierta se rechaza y no puede volver a entrar -------------------------
      await page.goto('/configuracion/usuarios');
      await page.getByRole('searchbox').fill(word);
      await page.getByRole('link', { name: `Editar ${fullName}` }).click();
      await page.getByRole('button', { name: 'Desactivar usuario' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Desactivar' }).click();
      await expect(page.getByText(`Usuario desactivado: ${fullName}`)).toBeVisible();

      await herPage.goto('/clientes');
      await expect(herPage).toHaveURL(/\/login/);
      await herPage.getByLabel('Correo Electrónico').fill(email);
      await herPage.getByLabel('Contraseña').fill(password);
      await herPage.getByRole('button', { name: 'Iniciar Sesión' }).click();
      await expect(herPage.getByText('Correo electrónico o contraseña incorrectos.')).toBeVisible();
      await hers.close();
    } finally {
      await restoreDefaults(page, defaults);
    }
  });

  test('los permisos se muestran tal como los aplica el servidor', async ({ page, browser }) => {
    await page.goto('/configuracion/permisos');
    await expect(page.getByRole('tab', { name: 'Permisos' })).toHaveAttribute('aria-selected', 'true');
    const table = page.getByRole('table', { name: 'Permisos por tipo de usuario' });
    await expect(
      table.getByRole('switch', { name: 'Crear y editar inmobiliarias — Administrador' }),
    ).toBeChecked();
    await expect(table.getByRole('switch', { name: 'Crear y editar inmobiliarias — KAM' })).not.toBeChecked();
    // And the server agrees: a KAM's attempt is refused.
    const kam = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const kamPage = await kam.newPage();
    await signIn(kamPage, ACCOUNTS.kam);
    const refused = await kamPage.request.post('/api/settings/agencies', {
      headers: { origin: new URL(kamPage.url()).origin },
      data: {
        rut: uniqueRut(),
        businessName: 'No debería existir SpA',
        bank: 'Banco',
        accountType: 'Cuenta Vista',
        accountNumber: '1',
      },
    });
    expect(refused.status()).toBe(403);
    await kam.close();
  });
});
