import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import { santiagoDateOf } from '../src/shared/format';
import { ACCOUNTS, signIn, uniqueRut, uniqueText } from './fixtures';

// Issue 59: a seller quotes an apartment and a parking through 'Nueva cotización'; a discount beyond
// the project's commercial policy is refused with the server's message and nothing is saved; the
// quote shows its plan in UF and pesos and is reserved from its screen; the apartment is then no
// longer offered to quote.

const SCREENS = '.tmp/screens';
const WIDTHS = [1440, 390] as const;

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

/** A project with two apartments and a parking priced from today, at most 4 % column discount. */
async function quotedProject(request: APIRequestContext, origin: string) {
  const headers = { origin };
  const today = santiagoDateOf(new Date());
  const agencies = await (await request.get('/api/settings/agencies?pageSize=10')).json();
  const created = await request.post('/api/settings/projects', {
    headers,
    data: {
      name: uniqueText('Torre Cotiza'),
      stage: 'Etapa 1',
      commune: 'Providencia',
      deadline: '2029-12-31',
      realEstateAgencyId: agencies.rows[0].id,
      totalUnits: null,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const project = (await created.json()).project as { id: string; name: string; stage: string };
  for (const unit of [
    { kind: 'apartment', number: '1201', floor: 12, typology: '2D2B' },
    { kind: 'apartment', number: '1202', floor: 12, typology: '1D1B' },
    { kind: 'parking', number: 'E-12', floor: -1 },
  ]) {
    const added = await request.post(`/api/stock/projects/${project.id}/units`, { headers, data: unit });
    expect(added.status(), await added.text()).toBe(201);
  }
  const prices = await request.post(`/api/stock/projects/${project.id}/price-lists`, {
    headers,
    data: {
      effectiveDate: today,
      rows: [
        { kind: 'apartment', number: '1201', price: '3000' },
        { kind: 'apartment', number: '1202', price: '2500' },
        { kind: 'parking', number: 'E-12', price: '200' },
      ],
    },
  });
  expect(prices.status(), await prices.text()).toBe(201);
  const policy = await request.put(`/api/stock/projects/${project.id}/policy`, {
    headers,
    data: {
      reservationAmount: null,
      maxColumnDiscount: '0.04',
      maxAdditionalDiscount: null,
      maxOtherDiscount: null,
      maxSubsidyFraction: null,
    },
  });
  expect(policy.status(), await policy.text()).toBe(200);
  // Today's UF value: a quote is priced in pesos at it.
  const month = await (await request.get(`/api/uf-values?month=${today.slice(0, 7)}`)).json();
  if (!month.days.find((day: { date: string; value: string | null }) => day.date === today)?.value) {
    const saved = await request.put(`/api/uf-values/${today}`, {
      headers,
      data: { value: '39.902,60', confirmJump: true },
    });
    expect(saved.status(), await saved.text()).toBe(200);
  }
  return project;
}

async function screens(page: Page, name: string) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SCREENS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

test('cotizaciones: nueva cotización, descuento fuera de política rechazado, plan en UF y pesos, Reservar', async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  await page.goto('/dashboard');
  const origin = new URL(page.url()).origin;
  const project = await quotedProject(page.request, origin);

  const kam = await kamPage(browser);
  try {
    // The prospect is already a client (by RUT), so 'Reservar' needs only the reservation's number.
    const rut = uniqueRut();
    const lastName = uniqueText('Cotiza');
    const client = await kam.request.post('/api/clients', {
      headers: { origin },
      data: { rut, firstName: 'Paula', lastName, birthDate: '1991-05-06', phone: null, email: null },
    });
    expect(client.status(), await client.text()).toBe(201);

    await kam.setViewportSize({ width: 1440, height: 900 });
    await kam.goto('/cotizaciones');
    await kam
      .getByRole('button', { name: 'Nueva cotización' })
      .or(kam.getByRole('link', { name: 'Nueva cotización' }))
      .click();
    await expect(kam).toHaveURL(/\/cotizaciones\/nueva$/);

    await kam.getByLabel('Nombre').fill(`Paula ${lastName}`);
    await kam.getByLabel('Correo electrónico').fill('paula.prospecto@example.cl');
    await kam.getByLabel('Teléfono').fill('+56 9 8765 4321');
    await kam.getByLabel('RUT').fill(rut);
    await kam.getByRole('combobox', { name: 'Proyecto' }).click();
    await kam.getByRole('option', { name: `${project.name} · ${project.stage}` }).click();
    await kam.getByRole('combobox', { name: 'Departamento' }).fill('1201');
    await kam.getByRole('option', { name: /^1201 · Piso 12 · 2D2B/ }).click();
    await kam.getByRole('combobox', { name: 'Estacionamientos' }).click();
    await kam.getByRole('option', { name: /^E-12/ }).click();
    await kam.keyboard.press('Escape');
    await kam.getByLabel('Descuento columna').fill('5');
    await kam.getByLabel('Reserva', { exact: true }).fill('20');
    await kam.getByLabel('Número de cuotas').fill('10');
    await screens(kam, 'cotizacion-nueva');

    // Beyond the policy: the server's refusal, and the form keeps what was typed.
    await kam.getByRole('button', { name: 'Cotizar' }).click();
    await expect(kam.getByRole('alert').filter({ hasText: 'No se pudo crear la cotización' })).toContainText(
      'La cotización excede la política comercial del proyecto: el descuento columna supera el máximo (4,00 %).',
    );
    await expect(kam).toHaveURL(/\/cotizaciones\/nueva$/);

    // Within it: saved, and the quote shows the plan the server computed.
    await kam.getByLabel('Descuento columna').fill('3');
    await kam.getByRole('button', { name: 'Cotizar' }).click();
    await expect(kam).toHaveURL(/\/cotizaciones\/[0-9a-f-]{36}$/);
    const plan = kam.getByRole('table', { name: 'Plan de pago' });
    await expect(plan.getByRole('row').filter({ hasText: 'Precio lista' })).toContainText('UF 3.200,00');
    await expect(plan.getByRole('row').filter({ hasText: 'Precio lista' })).toContainText(
      /\$\s?\d{1,3}(\.\d{3})+/,
    );
    await expect(plan.getByRole('row').filter({ hasText: 'Reserva' })).toContainText('UF 20,00');
    await expect(plan.getByRole('row').filter({ hasText: '10 cuotas de' })).toContainText(/UF \d/);
    await expect(plan.getByRole('row').filter({ hasText: 'Crédito hipotecario' })).toContainText(/\$/);
    await screens(kam, 'cotizacion');

    // 'Reservar': one dialog, the number, and the reservation exists.
    const number = uniqueText('Q').replace(' ', '-');
    await kam.getByRole('button', { name: 'Reservar' }).click();
    const dialog = kam.getByRole('dialog', { name: 'Reservar desde la cotización' });
    await dialog.getByLabel('N° de reserva').fill(number);
    await dialog.getByRole('button', { name: 'Reservar' }).click();
    await expect(kam).toHaveURL(/\/reservas\/editar\/[0-9a-f-]{36}$/);
    const reservationId = kam.url().split('/').pop();
    const reservation = await kam.request.get(`/api/reservations/${reservationId}`);
    expect(reservation.status()).toBe(200);
    expect((await reservation.json()).reservation.reservationNumber).toBe(number);

    // The list shows it reserved; the apartment is no longer offered to quote.
    await kam.goto('/cotizaciones');
    await kam.getByLabel('Buscar por prospecto, correo o RUT').fill(lastName);
    await expect(
      kam.getByRole('table', { name: 'Cotizaciones' }).getByRole('row').filter({ hasText: lastName }),
    ).toContainText(`Reservada · N° ${number}`);
    await screens(kam, 'cotizaciones');
    await kam.goto('/cotizaciones/nueva');
    await kam.getByRole('combobox', { name: 'Proyecto' }).click();
    await kam.getByRole('option', { name: `${project.name} · ${project.stage}` }).click();
    await kam.getByRole('combobox', { name: 'Departamento' }).fill('120');
    await expect(kam.getByRole('option', { name: /^1202 · Piso 12/ })).toBeVisible();
    await expect(kam.getByRole('option', { name: /^1201 · / })).toHaveCount(0);
  } finally {
    await kam.context().close();
  }
});
