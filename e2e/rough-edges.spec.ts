import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type APIRequestContext, expect, type Locator, type Page, test } from '@playwright/test';
import { freePort, startServer, stopServer } from '../scripts/server-process';
import { ACCOUNTS, apiReservation, newStaffUser, SIGNED_OUT, signIn, uniqueText } from './fixtures';

// Issue 28 §6 "Words and wording" and §7 "Layout": what the users' walk found, each checked in the
// browser at the size it was found at (1440×900 or 390×844).

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

interface FlowTask {
  id: string;
  name: string;
  version: number;
}

async function tasksOf(request: APIRequestContext, flowId: string): Promise<FlowTask[]> {
  const response = await request.get(`/api/sale-flows/${flowId}`);
  expect(response.status(), await response.text()).toBe(200);
  const { flow } = (await response.json()) as { flow: { stages: { tasks: FlowTask[] }[] } };
  return flow.stages.flatMap((stage) => stage.tasks);
}

async function taskNamed(request: APIRequestContext, flowId: string, name: string): Promise<FlowTask> {
  const task = (await tasksOf(request, flowId)).find((candidate) => candidate.name === name);
  if (!task) throw new Error(`no task ${name} in ${flowId}`);
  return task;
}

async function originOf(page: Page): Promise<string> {
  await page.goto('/dashboard');
  return new URL(page.url()).origin;
}

/** Whether a box's whole text shows (nothing cut by its width). */
const isWhole = (locator: Locator) =>
  locator.evaluate((element) => element.scrollWidth <= element.clientWidth);

/** A reservation made and rescinded through the API, its bank data set first: its flow is cancelled. */
async function rescindedWithBank(page: Page, bankName: string) {
  const origin = await originOf(page);
  const headers = { origin };
  const reservation = await apiReservation(page.request, origin, {
    firstName: 'Renata',
    lastName: uniqueText('Resciliada'),
    prefix: 'X',
    // Past its deadline: the deed's bank data may be given.
    projectName: 'Parque Vicuña',
  });
  const flow = (await (await page.request.get(`/api/sale-flows/${reservation.saleFlowId}`)).json()).flow;
  const bank = await page.request.patch(`/api/sale-flows/${reservation.saleFlowId}/reservation`, {
    headers,
    data: {
      version: flow.reservation.version,
      bankName,
      bankExecutive: 'Maximiliano Hernández de la Fuente',
      bankExecutiveEmail: 'maximiliano.hernandez.delafuente@bancoejemplo.cl',
    },
  });
  expect(bank.status(), await bank.text()).toBe(200);
  const rescinded = await page.request.post(`/api/reservations/${reservation.reservationId}/rescission`, {
    headers,
    data: { reason: 'El cliente desistió de la compra', confirmation: 'CONFIRMAR' },
  });
  expect(rescinded.status(), await rescinded.text()).toBe(200);
  return reservation;
}

test.describe('§6 palabras', () => {
  test.describe('registro', () => {
    test.use(SIGNED_OUT);

    test('/login ofrece Registrarse solo mientras el servidor dice que el registro está abierto', async ({
      browser,
    }) => {
      test.setTimeout(180_000);
      // A server of this test's own with the default REGISTRATION=first-user (the shared one runs
      // with registration open): open until the first account exists, closed after.
      const dataDir = mkdtempSync(join(tmpdir(), 'inmoflujo-registration-'));
      const port = await freePort();
      const origin = `http://127.0.0.1:${port}`;
      const registration = process.env.REGISTRATION;
      delete process.env.REGISTRATION;
      let server: ChildProcess | null = null;
      const context = await browser.newContext({ baseURL: origin, locale: 'es-CL' });
      try {
        server = await startServer(port, { dataDir });
        const page = await context.newPage();
        await page.goto('/login');
        await expect(page.getByRole('link', { name: 'Registrarse' })).toBeVisible();
        const first = await context.request.post('/api/auth/register', {
          headers: { origin },
          data: {
            firstName: 'Olga',
            lastName: 'Vera',
            position: 'Gerenta',
            email: 'olga.vera@inmoflujo.test',
            password: 'clave-de-olga-2026',
          },
        });
        expect(first.status(), await first.text()).toBe(201);
        await page.goto('/login');
        await expect(page.getByRole('button', { name: 'Iniciar Sesión' })).toBeVisible();
        await expect(page.getByText('¿No tiene una cuenta?')).toHaveCount(0);
        await expect(page.getByRole('link', { name: 'Registrarse' })).toHaveCount(0);
      } finally {
        if (registration !== undefined) process.env.REGISTRATION = registration;
        await context.close();
        if (server) await stopServer(server);
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  });

  test('el historial dice "marcó la tarea como Completada" y que quitar a la responsable fue por completarla', async ({
    page,
  }) => {
    const origin = await originOf(page);
    const headers = { origin };
    const reservation = await apiReservation(page.request, origin, {
      firstName: 'Hilda',
      lastName: uniqueText('Historial'),
      prefix: 'H',
    });
    const { users } = (await (await page.request.get('/api/users/options')).json()) as {
      users: { id: string; firstName: string; lastName: string }[];
    };
    const karla = users.find((user) => `${user.firstName} ${user.lastName}` === ACCOUNTS.kam.name)!;
    const task = await taskNamed(page.request, reservation.saleFlowId, 'COF PENDIENTE FIRMA');
    const base = `/api/sale-flows/${reservation.saleFlowId}/tasks/${task.id}`;
    const assigned = await page.request.post(`${base}/assignees`, { headers, data: { userId: karla.id } });
    expect(assigned.status(), await assigned.text()).toBeLessThan(300);
    const completed = await page.request.put(`${base}/status`, { headers, data: { status: 'completed' } });
    expect(completed.status(), await completed.text()).toBe(200);

    await page.goto(`/flujo-reservas/${reservation.saleFlowId}`);
    await page.getByRole('button', { name: 'Historial', exact: true }).click();
    const drawer = page.getByRole('dialog', { name: 'Historial' });
    const entries = drawer.getByTestId('history-entry');
    await expect(
      entries.filter({ hasText: 'Alicia Administradora marcó la tarea COF PENDIENTE FIRMA como Completada' }),
    ).toHaveCount(1);
    await expect(
      entries.filter({
        hasText: 'Alicia Administradora quitó a Karla Mendoza de la tarea COF PENDIENTE FIRMA al completarla',
      }),
    ).toHaveCount(1);
    await expect(drawer.getByText(/Completada por|\(vacío\)/)).toHaveCount(0);
  });

  test('/notificaciones: las tareas de un mismo instante en el orden del flujo; una de una etapa no alcanzada lo dice', async ({
    page,
    browser,
  }) => {
    test.setTimeout(120_000);
    const origin = await originOf(page);
    const seller = await newStaffUser(page, browser, origin, {
      firstName: 'Sara',
      lastName: 'Orden',
      position: 'Ejecutiva Comercial',
      userType: 'KAM',
    });
    try {
      // Each sale flow gives its seller the three tasks of Reserva at one instant.
      const sales = [];
      for (const lastName of ['Primera', 'Segunda']) {
        sales.push(
          await apiReservation(page.request, origin, {
            firstName: 'Olivia',
            lastName: uniqueText(lastName),
            prefix: 'O',
            sellerId: seller.id,
          }),
        );
      }
      // A task of Promesa, a stage the flow has not reached.
      const promesa = await taskNamed(page.request, sales[0]!.saleFlowId, 'PENDIENTE ORIGEN DE FONDOS');
      const assigned = await page.request.post(
        `/api/sale-flows/${sales[0]!.saleFlowId}/tasks/${promesa.id}/assignees`,
        { headers: { origin }, data: { userId: seller.id } },
      );
      expect(assigned.status(), await assigned.text()).toBeLessThan(300);

      await seller.page.goto('/notificaciones');
      const cards = seller.page.getByTestId('task-card');
      const flowOrder = ['COF PENDIENTE GENERACIÓN', 'COF PENDIENTE FIRMA', 'SOLICITUD VB COF PENDIENTE'];
      await expect(cards.filter({ hasText: 'COF' })).toHaveCount(6);
      // The newer flow's three, then the older's, each in the flow's order.
      const shown = await cards.evaluateAll(
        (found, names) =>
          found.flatMap((card) => names.filter((name) => card.textContent?.includes(name)).slice(0, 1)),
        flowOrder,
      );
      expect(shown).toEqual([...flowOrder, ...flowOrder]);

      const notStarted = cards.filter({ hasText: 'PENDIENTE ORIGEN DE FONDOS' });
      await expect(notStarted.getByTestId('task-card-start')).toHaveText(
        'Asignada · aún no comienza (flujo en Reserva)',
      );
    } finally {
      await seller.close();
    }
  });
});

test.describe('§7 diseño a 1440×900', () => {
  test.use({ viewport: DESKTOP });

  test('Consolidado Brokers: la columna Riesgo y sus botones caben en pantalla; el broker elegido se lee entero', async ({
    page,
  }) => {
    const brokers = (await (await page.request.get('/api/brokers?pageSize=100')).json()).rows as {
      id: string;
      name: string;
      businessName: string;
    }[];
    // The broker of the longest name among those with commissions.
    const withRows = [];
    for (const broker of brokers) {
      const report = await (
        await page.request.get(`/api/reports/broker-consolidated?brokerId=${broker.id}&pageSize=10`)
      ).json();
      if (report.rows.length > 0) withRows.push(broker);
    }
    const broker = withRows.sort(
      (a, b) => b.name.length + b.businessName.length - (a.name.length + a.businessName.length),
    )[0]!;
    await page.goto(`/informes/consolidado-brokers?broker=${broker.id}`);
    const select = page.getByRole('combobox', { name: 'Broker' });
    await expect(select).toHaveValue(`${broker.name} - ${broker.businessName}`);
    expect(await isWhole(select)).toBe(true);

    const table = page.getByRole('table', { name: 'Consolidado Brokers' });
    await expect(table.getByRole('columnheader', { name: 'Riesgo' })).toBeVisible();
    const viewport = page.viewportSize()!;
    const header = (await table.getByRole('columnheader', { name: 'Riesgo' }).boundingBox())!;
    expect(header.x + header.width).toBeLessThanOrEqual(viewport.width);
    const button = table.getByRole('button', { name: /Riesgo/ }).first();
    await expect(button).toBeVisible();
    const box = (await button.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
    // Nothing to scroll sideways to.
    expect(
      await table.evaluate((element) => element.scrollWidth <= element.parentElement!.clientWidth + 1),
    ).toBe(true);
  });

  test('una tarea del flujo de venta tiene el lápiz de fechas en la misma línea que la fecha', async ({
    page,
  }) => {
    const origin = await originOf(page);
    const reservation = await apiReservation(page.request, origin, {
      firstName: 'Lápiz',
      lastName: uniqueText('Fechas'),
      prefix: 'L',
    });
    await page.goto(`/flujo-reservas/${reservation.saleFlowId}`);
    const row = page
      .getByRole('list', { name: 'Tareas de Reserva' })
      .getByRole('listitem', { name: 'COF PENDIENTE GENERACIÓN', exact: true });
    const start = (await row.getByTestId('task-started').boundingBox())!;
    const pencil = (await row
      .getByRole('button', { name: 'Editar fechas de COF PENDIENTE GENERACIÓN' })
      .boundingBox())!;
    const middle = (box: { y: number; height: number }) => box.y + box.height / 2;
    expect(Math.abs(middle(pencil) - middle(start))).toBeLessThanOrEqual(4);
  });

  test('la entrada activa del menú lateral no muestra el chevrón de un submenú', async ({ page }) => {
    await page.goto('/flujo-reservas');
    const menu = page.getByRole('navigation', { name: 'Menú principal' });
    const current = menu.getByRole('link', { name: 'Flujo Reservas' });
    await expect(current).toHaveAttribute('data-active', 'true');
    await expect(current.locator('svg')).toHaveCount(1);
    // The entries with a submenu keep theirs.
    await expect(menu.getByRole('button', { name: 'Informes' }).locator('svg')).toHaveCount(2);
  });

  test('un flujo cancelado no marca una "Etapa actual", y los datos del banco se leen enteros', async ({
    page,
  }) => {
    const bankName = 'Banco de Crédito e Inversiones Sucursal Providencia Oriente';
    const reservation = await rescindedWithBank(page, bankName);
    await page.goto(`/flujo-reservas/${reservation.saleFlowId}`);
    await expect(page.getByTestId('current-stage')).toHaveText('Cancelado');
    await expect(page.getByText('Etapa actual', { exact: true })).toHaveCount(0);
    await expect(page.getByText('Flujo cancelado', { exact: true })).toHaveCount(1);

    // Nothing to edit: the values as text, whole.
    const bank = page.getByTestId('bank-values');
    await expect(bank.getByText(bankName, { exact: true })).toBeVisible();
    await expect(bank.getByText('maximiliano.hernandez.delafuente@bancoejemplo.cl')).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Banco' })).toHaveCount(0);
    const shown = bank.getByText(bankName, { exact: true });
    expect(await shown.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
  });
});

test.describe('§7 diseño a 390×844', () => {
  test.use({ viewport: PHONE });

  test('Configuración: todas las secciones están al alcance en un teléfono', async ({ page }) => {
    await page.goto('/configuracion/proyectos');
    const select = page.getByRole('combobox', { name: 'Sección' });
    await expect(select).toBeVisible();
    const options = await select.locator('option').allTextContents();
    expect(options).toEqual([
      'Proyectos',
      'Inmobiliarias',
      'Usuarios',
      'Configuración Flujo Venta',
      'Configuración Flujo Pago',
      'Permisos',
      'Auditoría',
      'Solicitudes de titulares',
      'Correos',
      'Importar',
      'Valores UF',
      'Respaldos',
      'Documentos',
      'Pagos',
    ]);
    // No tab hides beyond the edge of the screen.
    const viewport = page.viewportSize()!;
    for (const tab of await page.getByRole('tab').all()) {
      if (!(await tab.isVisible())) continue;
      const box = (await tab.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
    }
    await select.selectOption({ label: 'Solicitudes de titulares' });
    await expect(page).toHaveURL(/\/configuracion\/solicitudes-titulares$/);
  });

  test('la búsqueda de Aprobaciones muestra su texto de ayuda entero', async ({ page }) => {
    await page.goto('/aprobaciones');
    const search = page.getByRole('searchbox', { name: 'Buscar por reserva, cliente, proyecto o broker' });
    await expect(search).toBeVisible();
    const fits = await search.evaluate((element) => {
      const input = element as HTMLInputElement;
      const style = getComputedStyle(input);
      const context = document.createElement('canvas').getContext('2d')!;
      context.font = style.font;
      const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      return context.measureText(input.placeholder).width <= room;
    });
    expect(fits).toBe(true);
  });
});

test.describe('cerrar sesión', () => {
  test.use(SIGNED_OUT);

  test('cerrar sesión no deja errores en la consola', async ({ page }) => {
    await signIn(page, ACCOUNTS.kam);
    await page.goto('/clientes');
    await expect(page.getByRole('heading', { name: 'Clientes' })).toBeVisible();
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    await page
      .getByRole('navigation', { name: 'Menú principal' })
      .getByRole('button', { name: 'Cerrar Sesión' })
      .click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('button', { name: 'Iniciar Sesión' })).toBeVisible();
    // Whatever the sign-out's last renders and requests would log has had its chance.
    await page.waitForLoadState('networkidle');
    expect(errors).toEqual([]);

    // Signed in again in the same tab (no page load): back to where the user was, and the screens
    // ask the server again.
    const listed = page.waitForResponse(
      (response) => new URL(response.url()).pathname === '/api/clients' && response.status() === 200,
    );
    await page.getByLabel('Correo Electrónico').fill(ACCOUNTS.kam.email);
    await page.getByLabel('Contraseña').fill(ACCOUNTS.kam.password);
    await page.getByRole('button', { name: 'Iniciar Sesión' }).click();
    await expect(page).toHaveURL(/\/clientes$/);
    await expect(page.getByRole('heading', { name: 'Clientes' })).toBeVisible();
    await listed;
    expect(errors).toEqual([]);
  });
});
