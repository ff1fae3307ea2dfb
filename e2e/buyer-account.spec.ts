import { mkdirSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { newStaffUser, uniqueRut, uniqueText } from './fixtures';

// Issue 60: the buyer's account. A seller builds the plan on the reservation's page, the payments team
// records payments (a cheque comes back and is reversed), the overdue list shows what is late, and
// 'PENDIENTE CARTA PIE' completes only once the pie is paid.

const SCREENS = '.tmp/screens';
const PIE_TASK = 'PENDIENTE CARTA PIE';

/** 'YYYY-MM-DD' of today in Santiago, shifted by some days. */
function santiagoDay(shift = 0): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Santiago' }).format(new Date());
  const [y, m, d] = today.split('-').map(Number);
  return new Date(Date.UTC(y!, m! - 1, d! + shift)).toISOString().slice(0, 10);
}

interface FlowTask {
  id: string;
  name: string;
  status: string;
  version: number;
}

async function flowTasks(page: Page, flowId: string): Promise<FlowTask[]> {
  const flow = (await (await page.request.get(`/api/sale-flows/${flowId}`)).json()).flow;
  return flow.stages.flatMap((stage: { tasks: FlowTask[] }) => stage.tasks);
}

function completeTask(page: Page, origin: string, flowId: string, task: FlowTask) {
  return page.request.put(`/api/sale-flows/${flowId}/tasks/${task.id}/status`, {
    headers: { origin },
    data: { status: 'completed' },
  });
}

test('la cuenta del comprador: plan del vendedor, pagos con un cheque devuelto, cuotas vencidas y la carta pie liberada al pagar', async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  mkdirSync(SCREENS, { recursive: true });
  await page.goto('/dashboard');
  const origin = new URL(page.url()).origin;

  // A reservation with reserva 20, promesa 180 and pie 300 UF; promised 75 days ago, deed in 6 months.
  const lastName = uniqueText('Cuenta');
  const client = await page.request.post('/api/clients', {
    headers: { origin },
    data: {
      rut: uniqueRut(),
      firstName: 'Elena',
      lastName,
      birthDate: '1985-04-02',
      phone: null,
      email: null,
    },
  });
  expect(client.status(), await client.text()).toBe(201);
  const options = await (await page.request.get('/api/reservations/form-options')).json();
  const project = options.projects.find(
    (candidate: { name: string }) => candidate.name === 'Edificio Los Aromos',
  );
  const created = await page.request.post('/api/reservations', {
    headers: { origin },
    data: {
      reservationNumber: uniqueText('CC').replace(' ', '-'),
      clientId: (await client.json()).client.id,
      projectId: project.id,
      sellerId: null,
      reservationDate: santiagoDay(-90),
      apartmentNumber: `CC${uniqueText('').trim().slice(-6)}`,
      apartmentPrice: '3000',
      columnDiscount: '0',
      additionalDiscount: '0',
      otherDiscount: '0',
      reservationPayment: '20',
      promisePayment: '180',
      downPayment: '300',
      creditPayment: '2500',
      isWithBroker: false,
      brokerId: null,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const {
    id: reservationId,
    reservationFlowId: flowId,
    reservationNumber,
  } = (await created.json()).reservation;

  // The promise and deed dates, as the sale flow's card sets them.
  const version = (await (await page.request.get(`/api/reservations/${reservationId}`)).json()).reservation
    .version;
  const dated = await page.request.patch(`/api/sale-flows/${flowId}/reservation`, {
    headers: { origin },
    data: { version, promiseDate: santiagoDay(-75), deedDate: santiagoDay(180) },
  });
  expect(dated.status(), await dated.text()).toBe(200);

  // The seller builds the plan: the pie in 3 cuotas.
  const seller = await newStaffUser(page, browser, origin, {
    firstName: 'Sergio',
    lastName: 'Vendedor',
    userType: 'KAM',
    position: 'Vendedor',
  });
  await seller.page.goto(`/reservas/editar/${reservationId}`);
  const sellerSection = seller.page.getByRole('region', { name: 'Cuenta del comprador' });
  await expect(
    sellerSection.getByText('Esta reserva no tiene plan de pagos.', { exact: false }),
  ).toBeVisible();
  await sellerSection.getByLabel('Cuotas del pie').fill('3');
  await sellerSection.getByRole('button', { name: 'Armar plan de pagos' }).click();
  const plan = sellerSection.getByRole('table', { name: 'Plan de pagos' });
  await expect(plan.getByRole('row')).toHaveCount(6);
  await expect(plan.getByRole('row', { name: /Cuota pie 3 de 3/ })).toContainText('UF 100,0000');
  await expect(sellerSection.getByRole('button', { name: 'Registrar pago' })).toHaveCount(0);
  await seller.close();

  // The payments team: 250 UF by cheque, 30 by transfer; the cheque comes back.
  const payer = await newStaffUser(page, browser, origin);
  const payerPage = payer.page;
  await payerPage.goto(`/reservas/editar/${reservationId}`);
  const section = payerPage.getByRole('region', { name: 'Cuenta del comprador' });
  async function recordPayment(amount: string, means: string, documentNumber: string) {
    await section.getByRole('button', { name: 'Registrar pago' }).click();
    const dialog = payerPage.getByRole('dialog', { name: 'Registrar pago' });
    await dialog.getByLabel('Monto en UF').fill(amount);
    await dialog.getByRole('combobox', { name: 'Medio de pago' }).click();
    await payerPage.getByRole('option', { name: means, exact: true }).click();
    await dialog.getByLabel('N° de documento').fill(documentNumber);
    await dialog.getByRole('button', { name: 'Registrar pago' }).click();
    await expect(dialog).toBeHidden();
  }
  await recordPayment('250', 'Cheque', '778899');
  await recordPayment('30', 'Transferencia', 'TR-1');
  const payments = section.getByRole('table', { name: 'Pagos recibidos' });
  await expect(payments.getByRole('row')).toHaveCount(3);
  await expect(section.getByText('UF 220,0000', { exact: true })).toBeVisible(); // the balance

  // A payment over the balance is refused with the server's words, nothing recorded.
  await section.getByRole('button', { name: 'Registrar pago' }).click();
  const over = payerPage.getByRole('dialog', { name: 'Registrar pago' });
  await over.getByLabel('Monto en UF').fill('999');
  await over.getByLabel('N° de documento').fill('X-1');
  await over.getByRole('button', { name: 'Registrar pago' }).click();
  await expect(
    over.getByText('supera el saldo por pagar del plan (UF 220,0000)', { exact: false }),
  ).toBeVisible();
  await over.getByRole('button', { name: 'Cancelar' }).click();

  await payments
    .getByRole('row', { name: /778899/ })
    .getByRole('button', { name: 'Reversar' })
    .click();
  const reversal = payerPage.getByRole('dialog', { name: 'Reversar el pago N° 778899' });
  await reversal
    .getByLabel('Motivo de la reversa', { exact: false })
    .fill('Cheque devuelto por falta de fondos');
  await reversal.getByRole('button', { name: 'Reversar pago' }).click();
  await expect(reversal).toBeHidden();
  await expect(payments.getByRole('row', { name: /778899/ })).toContainText(
    'Reversado: Cheque devuelto por falta de fondos',
  );
  await expect(section.getByText('UF 470,0000', { exact: true })).toBeVisible();
  for (const width of [1440, 390]) {
    await payerPage.setViewportSize({ width, height: 900 });
    await section.screenshot({ path: `${SCREENS}/buyer-account-${width}.png` });
  }

  // 'Cuotas vencidas': the promesa's rest and the cuotas past due, with days late.
  await payerPage.setViewportSize({ width: 1440, height: 900 });
  await payerPage.goto('/informes/cuotas-vencidas');
  const overdue = payerPage.getByRole('table', { name: 'Cuotas vencidas' });
  const ours = overdue.getByRole('row', { name: new RegExp(reservationNumber) });
  await expect(ours.first()).toBeVisible();
  await expect(ours.filter({ hasText: 'Promesa' })).toContainText(`Elena ${lastName}`);
  for (const width of [1440, 390]) {
    await payerPage.setViewportSize({ width, height: 900 });
    await payerPage.screenshot({ path: `${SCREENS}/cuotas-vencidas-${width}.png`, fullPage: true });
  }

  // The sale flow up to 'PENDIENTE CARTA PIE': refused while the pie is owed.
  const tasks = await flowTasks(page, flowId);
  for (const task of tasks.slice(
    0,
    tasks.findIndex((candidate) => candidate.name === PIE_TASK),
  )) {
    const done = await completeTask(page, origin, flowId, task);
    expect(done.status(), await done.text()).toBe(200);
  }
  const pieTask = tasks.find((task) => task.name === PIE_TASK)!;
  const refused = await completeTask(page, origin, flowId, pieTask);
  expect(refused.status()).toBe(409);
  expect((await refused.json()).error.message).toContain('El pie no está pagado (saldo UF 470,0000)');

  // The rest paid: the task completes.
  await payerPage.goto(`/reservas/editar/${reservationId}`);
  await payerPage.getByRole('region', { name: 'Cuenta del comprador' }).waitFor();
  await recordPayment('470', 'Vale vista', 'VV-2');
  await expect(section.getByText('Pie pagado', { exact: true })).toBeVisible();
  const completed = await completeTask(page, origin, flowId, pieTask);
  expect(completed.status(), await completed.text()).toBe(200);
  await payer.close();
});
