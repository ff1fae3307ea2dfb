import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import { ACCOUNTS, signIn, uniqueRut, uniqueText } from './fixtures';

// Issue 31: an administrator loads a project's units and its price list; a seller reserves a unit
// from the picker with its price prefilled; Disponibilidad, open in another browser, shows it
// 'Reservada' without reloading, 'Promesada' once the sale flow reaches the promise stage, and
// 'Disponible' again after a rescission.

const LIVE = { timeout: 15_000 };

async function kamPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({
    baseURL: test.info().project.use.baseURL,
    locale: 'es-CL',
    timezoneId: 'America/Santiago',
    storageState: { cookies: [], origins: [] },
  });
  const page = await context.newPage();
  await signIn(page, ACCOUNTS.kam);
  return page;
}

async function newProject(request: APIRequestContext, origin: string) {
  const agencies = await (await request.get('/api/settings/agencies?pageSize=10')).json();
  const created = await request.post('/api/settings/projects', {
    headers: { origin },
    data: {
      name: uniqueText('Torre Stock'),
      stage: 'Etapa 1',
      commune: 'Ñuñoa',
      deadline: '2029-12-31',
      realEstateAgencyId: agencies.rows[0].id,
      totalUnits: null,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  return (await created.json()).project as { id: string; name: string; stage: string };
}

async function addUnit(
  page: Page,
  values: { kind?: string; number: string; floor: string; typology?: string },
) {
  await page.getByRole('button', { name: 'Nueva unidad' }).click();
  const dialog = page.getByRole('dialog', { name: 'Nueva unidad' });
  if (values.kind) {
    await dialog.getByRole('combobox', { name: 'Tipo' }).click();
    await page.getByRole('option', { name: values.kind, exact: true }).click();
  }
  await dialog.getByLabel('Número').fill(values.number);
  await dialog.getByLabel('Piso').fill(values.floor);
  if (values.typology) await dialog.getByLabel('Tipología').fill(values.typology);
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog).toBeHidden();
}

/** A unit of the grid by its kind, number and status ('Departamento 1501', 'Reservada'). */
const cell = (page: Page, unit: string, status: string) =>
  page.getByRole('button', { name: new RegExp(`^${unit.replace(' ', '\\s*')}(\\s.*)?:\\s*${status}$`) });

test('stock: unidades y lista de precios, reserva desde el selector, Disponibilidad en vivo hasta la resciliación', async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  await page.goto('/dashboard');
  const origin = new URL(page.url()).origin;
  const project = await newProject(page.request, origin);

  // The administrator loads the units and the price list in Configuración → Proyectos.
  await page.goto(`/configuracion/proyectos/editar/${project.id}`);
  await expect(page.getByRole('heading', { name: 'Stock del proyecto' })).toBeVisible();
  await addUnit(page, { number: '1501', floor: '15', typology: '2D2B' });
  await addUnit(page, { number: '1502', floor: '15', typology: '1D1B' });
  await addUnit(page, { kind: 'Estacionamiento', number: 'E-15', floor: '-1' });
  const units = page.getByRole('table', { name: 'Unidades del proyecto' });
  await expect(units.getByRole('row')).toHaveCount(4);

  await page.getByRole('tab', { name: 'Lista de precios' }).click();
  await page.getByRole('textbox', { name: 'Vigente desde' }).fill('01/01/2026');
  await page
    .getByRole('textbox', { name: 'Precios' })
    .fill(
      'Tipo;Número;Precio\nDepartamento;1501;3.200,50\nDepartamento;1502;2.400\nEstacionamiento;E-15;180',
    );
  await page.getByRole('button', { name: 'Revisar diferencias' }).click();
  await expect(page.getByText('0 precios cambian, 3 unidades nuevas, 0 sin cambio')).toBeVisible();
  await page.getByRole('button', { name: 'Aplicar lista' }).click();
  const history = page.getByRole('table', { name: 'Historial de listas de precios' });
  await expect(history.getByRole('row').filter({ hasText: '01/01/2026' })).toContainText('Vigente');

  // The administrator watches Disponibilidad.
  await page.goto(`/disponibilidad?proyecto=${project.id}`);
  await expect(cell(page, 'Departamento 1501', 'Disponible')).toBeVisible();

  // A seller, in another browser, reserves 1501 from the picker: its price comes prefilled.
  const kam = await kamPage(browser);
  try {
    const clientName = uniqueText('Stock');
    const client = await kam.request.post('/api/clients', {
      headers: { origin },
      data: {
        rut: uniqueRut(),
        firstName: 'Inés',
        lastName: clientName,
        birthDate: '1990-02-03',
        phone: null,
        email: null,
      },
    });
    expect(client.status(), await client.text()).toBe(201);
    await kam.goto('/reservas/nueva');
    await kam.getByLabel('Buscar cliente').fill(clientName);
    await kam.getByRole('listitem').filter({ hasText: clientName }).click();
    const number = uniqueText('S').replace(' ', '-');
    await kam.getByLabel('N° de reserva').fill(number);
    await kam.getByRole('combobox', { name: 'Proyecto' }).click();
    await kam.getByRole('option', { name: `${project.name} · ${project.stage}` }).click();
    const apartment = kam.getByRole('combobox', { name: 'Departamento' });
    await apartment.fill('2d2b');
    await kam.getByRole('option', { name: /^1501 · Piso 15 · 2D2B/ }).click();
    await expect(kam.getByLabel('Precio departamento')).toHaveValue(/^3\.200,50?$/);
    await kam.getByRole('combobox', { name: 'Estacionamientos' }).click();
    await kam.getByRole('option', { name: /^E-15/ }).click();
    await expect(kam.getByLabel('Precio estacionamiento')).toHaveValue(/^180(,00)?$/);
    await expect(kam.getByTestId('total-price')).toHaveText('UF 3.380,50');
    await kam.getByLabel('Crédito hipotecario').fill('3380,5');
    await kam.getByRole('button', { name: 'Crear Reserva' }).click();
    await expect(kam).toHaveURL(/\/reservas$/);

    // The other browser follows: 'Reservada', with the reservation, client and seller on hover.
    await expect(cell(page, 'Departamento 1501', 'Reservada')).toBeVisible(LIVE);
    await expect(cell(page, 'Estacionamiento E-15', 'Reservada')).toBeVisible();
    await cell(page, 'Departamento 1501', 'Reservada').click();
    const details = page.getByRole('dialog');
    await expect(details).toContainText(`Reserva N° ${number}`);
    await expect(details).toContainText(`Cliente: Inés ${clientName}`);
    // The seller preselected on new reservations (the default seller).
    await expect(details).toContainText('Vendedor: Alicia Administradora');
    await expect(page.getByTestId('count-Reservada')).toHaveText('2');

    // The sale flow reaches the promise stage: 'Promesada'.
    const reservations = await (
      await page.request.get(`/api/reservations?search=${encodeURIComponent(number)}`)
    ).json();
    const reservationId = reservations.rows[0].id as string;
    const reservation = (await (await page.request.get(`/api/reservations/${reservationId}`)).json())
      .reservation;
    const flowId = reservation.reservationFlowId as string;
    const flow = (await (await page.request.get(`/api/sale-flows/${flowId}`)).json()).flow;
    const reserveStage = flow.stages.find((stage: { name: string }) => stage.name === 'Reserva');
    for (const task of reserveStage.tasks as { id: string }[]) {
      const done = await page.request.put(`/api/sale-flows/${flowId}/tasks/${task.id}/status`, {
        headers: { origin },
        data: { status: 'completed' },
      });
      expect(done.status(), await done.text()).toBe(200);
    }
    await expect(cell(page, 'Departamento 1501', 'Promesada')).toBeVisible(LIVE);

    // A rescission frees it.
    const rescinded = await page.request.post(`/api/reservations/${reservationId}/rescission`, {
      headers: { origin },
      data: { reason: 'El cliente desiste', confirmation: 'CONFIRMAR' },
    });
    expect(rescinded.status(), await rescinded.text()).toBe(200);
    await expect(cell(page, 'Departamento 1501', 'Disponible')).toBeVisible(LIVE);
    await expect(cell(page, 'Estacionamiento E-15', 'Disponible')).toBeVisible();
  } finally {
    await kam.context().close();
  }
});
