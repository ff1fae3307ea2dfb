import { expect, type Locator, type Page, test } from '@playwright/test';
import { apiReservation, pickSearchedOption, uniqueRut, uniqueText } from './fixtures';

// Issue 57 "Sales and stock": the layout ones, checked in the browser at the sizes they were found
// at (1440×900 and 390×844).

const SIZES = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
];

function santiagoDay(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Santiago' }).format(new Date());
}

async function originOf(page: Page): Promise<string> {
  await page.goto('/dashboard');
  return new URL(page.url()).origin;
}

type Box = { x: number; y: number; width: number; height: number };
async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  if (!box) throw new Error('not laid out');
  return box;
}
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width - 0.5 &&
  b.x < a.x + a.width - 0.5 &&
  a.y < b.y + b.height - 0.5 &&
  b.y < a.y + a.height - 0.5;

for (const size of SIZES) {
  test(`a task row's two avatars side by side, and the payment's 'Valor UF del …' inside its column (${size.width} px)`, async ({
    page,
  }) => {
    await page.setViewportSize(size);
    const origin = await originOf(page);
    const headers = { origin };
    // Today's UF value, so the payment shows its pesos with the line that overprinted.
    const today = await page.request.get(`/api/uf-values?month=${santiagoDay().slice(0, 7)}`);
    const day = (await today.json()).days.find((d: { date: string }) => d.date === santiagoDay());
    if (!day?.value) {
      const saved = await page.request.put(`/api/uf-values/${santiagoDay()}`, {
        headers,
        data: { value: '39.902,60', confirmJump: true },
      });
      expect(saved.status(), await saved.text()).toBe(200);
    }
    const reservation = await apiReservation(page.request, origin, {
      firstName: 'Valentina',
      lastName: uniqueText('Columnas'),
      prefix: 'LY',
      commission: { commissionAmount: '100', numberOfPayments: 1, firstPaymentPercentage: 100 },
    });

    // Two people on one sale task: both avatars whole, neither over the other.
    const users = (await (await page.request.get('/api/users/options')).json()).users as { id: string }[];
    const flow = (await (await page.request.get(`/api/sale-flows/${reservation.saleFlowId}`)).json()).flow;
    const task = flow.stages.flatMap((stage: { tasks: { id: string; name: string }[] }) => stage.tasks)[0];
    for (const user of users.slice(0, 2)) {
      const assigned = await page.request.post(
        `/api/sale-flows/${reservation.saleFlowId}/tasks/${task.id}/assignees`,
        { headers, data: { userId: user.id } },
      );
      expect(assigned.status(), await assigned.text()).toBeLessThan(300);
    }
    await page.goto(`/flujo-reservas/${reservation.saleFlowId}`);
    const row = page.getByRole('listitem', { name: task.name });
    const avatars = row.getByTestId('avatar-stack').locator('.mantine-Avatar-root');
    await expect(avatars).toHaveCount(2);
    const [first, second] = [await boxOf(avatars.nth(0)), await boxOf(avatars.nth(1))];
    expect(overlaps(first, second), JSON.stringify({ first, second })).toBe(false);
    await page.screenshot({ path: `.tmp/issue57-task-row-${size.width}.png`, fullPage: false });

    // The payment flow: 'Valor UF del …' stays inside its column, nothing runs into the next.
    const opened = await page.request.post(`/api/payments/${reservation.reservationId}/first-flow`, {
      headers,
    });
    expect(opened.status(), await opened.text()).toBeLessThan(300);
    await page.goto(`/pagos/flujo/${(await opened.json()).flowId}`);
    const item = page.getByTestId('payment-clp');
    const line = item.getByTestId('clp-uf-value');
    await expect(line).toContainText('Valor UF');
    const [itemBox, lineBox] = [await boxOf(item), await boxOf(line)];
    expect(lineBox.x + lineBox.width, JSON.stringify({ itemBox, lineBox })).toBeLessThanOrEqual(
      itemBox.x + itemBox.width + 0.5,
    );
    expect(await line.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    await item.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `.tmp/issue57-payment-${size.width}.png`, fullPage: false });
  });
}

/** A project of this journey alone, with a commercial policy of at most 5 % column discount. */
async function projectWithPolicy(page: Page, origin: string): Promise<string> {
  const headers = { origin };
  const agencies = (await (await page.request.get('/api/settings/agencies?pageSize=1')).json()).rows as {
    id: string;
  }[];
  const name = uniqueText('Edificio Política');
  const created = await page.request.post('/api/settings/projects', {
    headers,
    data: {
      name,
      stage: 'Etapa 1',
      commune: 'Ñuñoa',
      deadline: '2028-12-31',
      realEstateAgencyId: agencies[0]!.id,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const projectId = (await created.json()).project.id as string;
  const policy = await page.request.put(`/api/stock/projects/${projectId}/policy`, {
    headers,
    data: {
      reservationAmount: null,
      maxColumnDiscount: '0.05',
      maxAdditionalDiscount: null,
      maxOtherDiscount: null,
      maxSubsidyFraction: null,
    },
  });
  expect(policy.status(), await policy.text()).toBe(200);
  return name;
}

for (const size of SIZES) {
  test(`the commercial policy's refusal is in view after 'Confirmar y crear reserva' (${size.width} px)`, async ({
    page,
  }) => {
    await page.setViewportSize(size);
    const origin = await originOf(page);
    const headers = { origin };
    const projectName = await projectWithPolicy(page, origin);
    const lastName = uniqueText('Política');
    const client = await page.request.post('/api/clients', {
      headers,
      data: {
        rut: uniqueRut(),
        firstName: 'Irene',
        lastName,
        birthDate: '1988-05-20',
        phone: null,
        email: null,
      },
    });
    expect(client.status(), await client.text()).toBe(201);
    const brokerName = uniqueText('Broker Política');
    const broker = await page.request.post('/api/brokers', {
      headers,
      data: {
        rut: uniqueRut(),
        name: brokerName,
        businessName: `${brokerName} SpA`,
        legalRepresentative: 'Marta Lagos',
        legalRepresentativeRut: uniqueRut(),
        commercialAddress: 'Av. Apoquindo 3000',
        commercialAddressCommune: 'Las Condes',
        commercialContactName: 'Pablo Díaz',
        constitutionDate: '2016-04-01',
        constitutionNotary: 'Notaría Díaz',
        kamName: 'Karla Mendoza',
      },
    });
    expect(broker.status(), await broker.text()).toBe(201);

    await page.goto('/reservas/nueva');
    await page.getByLabel('Buscar cliente').fill(lastName);
    await page.getByRole('listitem').filter({ hasText: lastName }).click();
    const unit = uniqueText('').trim().slice(-6);
    await page.getByLabel('N° de reserva').fill(uniqueText('PC').replace(' ', '-'));
    await page.getByRole('combobox', { name: 'Proyecto' }).click();
    await page.getByRole('option', { name: `${projectName} · Etapa 1` }).click();
    await page.getByLabel('N° departamento').fill(`D${unit}`);
    await page.getByLabel('Precio departamento').fill('3000');
    await page.getByLabel('Descuento columna').fill('8');
    // The form already warns while typing, from the policy the server gave it.
    await expect(page.getByTestId('policy-warning-columnDiscount')).toHaveText(
      'Excede la política comercial del proyecto (máximo 5 %)',
    );
    await page.getByLabel('Crédito hipotecario').fill('2700');
    await page.getByLabel('Venta con broker').check();
    await pickSearchedOption(page, 'Broker', brokerName, brokerName);
    await page.getByRole('button', { name: 'Crear Reserva' }).click();
    const popup = page.getByRole('dialog', { name: /Comisión del Broker/ });
    await popup.getByLabel('Monto de la comisión').fill('50');
    await popup.getByRole('button', { name: 'Confirmar y crear reserva' }).click();

    // The server's refusal, where the user is looking: in the viewport and focused.
    const refusal = page.getByRole('alert').filter({ hasText: 'excede la política comercial del proyecto' });
    await expect(refusal).toBeInViewport();
    await expect(refusal).toBeFocused();
    await expect(refusal).toContainText('el descuento columna supera el máximo (5,00 %)');
    // Still on the form (nothing was created).
    await expect(page).toHaveURL(/\/reservas\/nueva(\?|$)/);
    await page.screenshot({ path: `.tmp/issue57-policy-refusal-${size.width}.png`, fullPage: false });
  });
}
