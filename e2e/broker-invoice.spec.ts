import { mkdirSync, readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { FIRST_PAYMENT_BEFORE_INVOICE } from '../src/server/test/payment-flow-tasks';
import { severeAxeViolations } from './axe';
import { apiReservation, completePaymentTasks, newStaffUser, uniqueText } from './fixtures';

// Issue 33: the broker's invoice on 'Recepción Factura Broker' — read from the SII's XML by the
// payments team, checked against the payment line by line; a mismatch stops the task until an
// administrator accepts it with a reason.

const FIXTURE = 'src/server/features/broker-invoices/fixtures/dte-33-76543210.xml';
const SCREENS = '.tmp/screens';

const status = (page: Page, task: string) => page.getByRole('combobox', { name: `Estado de ${task}` });
const taskCard = (page: Page, name: string) =>
  page.getByRole('list', { name: /^Tareas de / }).getByRole('listitem', { name, exact: true });

/** 'Completada' chosen for the task, and confirmed (the payments team cannot take it back). */
async function chooseCompleted(page: Page, task: string) {
  await status(page, task).click();
  await page.getByRole('option', { name: 'Completada', exact: true }).click();
  const confirm = page.getByRole('dialog', { name: '¿Cambiar a «Completada»?' });
  await confirm.getByRole('button', { name: 'Confirmar' }).click();
  await expect(confirm).toBeHidden();
}

/** 'YYYY-MM-DD' of today in Santiago, shifted by some days. */
function santiagoDay(shift = 0): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Santiago' }).format(new Date());
  const [y, m, d] = today.split('-').map(Number);
  return new Date(Date.UTC(y!, m! - 1, d! + shift)).toISOString().slice(0, 10);
}

test('la factura del broker desde su XML: la diferencia se ve línea a línea, bloquea la tarea hasta que un administrador la acepta', async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  await page.goto('/dashboard');
  const origin = new URL(page.url()).origin;

  // A commission of UF 110 (IVA included) in one payment; its flow at 'Recepción Factura Broker'.
  const reservation = await apiReservation(page.request, origin, {
    firstName: 'Tomás',
    lastName: uniqueText('Factura'),
    prefix: 'FB',
    commission: { commissionAmount: '110', numberOfPayments: 1, firstPaymentPercentage: 100 },
  });
  const opened = await page.request.post(`/api/payments/${reservation.reservationId}/first-flow`, {
    headers: { origin },
  });
  const flowId = (await opened.json()).flowId as string;
  expect(
    (await page.request.post(`/api/payment-flows/${flowId}/start`, { headers: { origin } })).status(),
  ).toBe(200);
  await completePaymentTasks(page, flowId, FIRST_PAYMENT_BEFORE_INVOICE);

  // The UF of the invoice's issue date (twelve days ago: out of the other journeys' days).
  const issueDate = santiagoDay(-12);
  const uf = await page.request.put(`/api/uf-values/${issueDate}`, {
    headers: { origin },
    data: { value: '40000,00' },
  });
  expect([200, 409]).toContain(uf.status());
  const broker = (await (await page.request.get(`/api/payment-flows/${flowId}/invoices`)).json()).tasks[0]
    .broker;

  // The broker's XML: the SII fixture, issued by this broker, on that day, with a folio of its own.
  const folio = String(100_000 + Math.floor(Math.random() * 899_999));
  const xml = readFileSync(FIXTURE)
    .toString('latin1')
    .replaceAll('76543210-3', broker.rut)
    .replaceAll('2026-11-16', issueDate)
    .replace('<Folio>1234</Folio>', `<Folio>${folio}</Folio>`);

  // Paula, of the payments team, uploads it on the payment flow.
  const paula = await newStaffUser(page, browser, origin);
  const her = paula.page;
  await her.goto(`/pagos/flujo/${flowId}`);
  const panel = her.getByTestId('broker-invoice');
  await expect(panel).toContainText('Aún no se registra la factura del broker');
  const chooser = her.waitForEvent('filechooser');
  await panel.getByRole('button', { name: 'Subir XML' }).click();
  await (await chooser).setFiles({
    name: `factura-${folio}.xml`,
    mimeType: 'text/xml',
    buffer: Buffer.from(xml, 'latin1'),
  });

  // The mismatch, line by line: UF 110 is not the 4.000.001 invoiced.
  await expect(panel.getByText('No cuadra con el pago', { exact: true })).toBeVisible();
  await expect(panel.getByTestId('invoice-folio')).toHaveText(folio);
  await expect(panel.getByTestId('invoice-claim')).toHaveText('Quedan 8 días para reclamar la factura');
  await expect(panel.getByTestId('invoice-line-issuerRut')).toHaveAttribute('data-matches', 'true');
  await expect(panel.getByTestId('invoice-line-net')).toHaveAttribute('data-matches', 'false');
  await expect(panel.getByTestId('invoice-line-net')).toContainText('$ 3.361.345');
  // Its IVA is 19 % of its own net, not of the net the payment expects (issue 53).
  await expect(panel.getByTestId('invoice-line-vat')).toHaveAttribute('data-matches', 'false');
  await expect(panel.getByTestId('invoice-line-total')).toHaveAttribute('data-matches', 'false');
  await expect(panel.getByTestId('invoice-line-total')).toContainText('$ 4.000.001');
  const blocked =
    'La factura del broker no cuadra con el pago (Neto, IVA (19 %), Total): un administrador debe aceptar la diferencia, con un motivo, antes de completar la tarea.';
  await expect(panel.getByTestId('invoice-block')).toHaveText(blocked);
  await expect(panel.getByRole('button', { name: 'Aceptar diferencia' })).toHaveCount(0);

  // The panel as she sees it, wide and on a phone (once the saved notice has gone).
  await expect(her.getByText('Factura leída del XML y registrada')).toBeHidden();
  mkdirSync(SCREENS, { recursive: true });
  await her.setViewportSize({ width: 1440, height: 900 });
  await panel.screenshot({ path: `${SCREENS}/broker-invoice-1440.png` });
  await her.setViewportSize({ width: 390, height: 844 });
  await panel.screenshot({ path: `${SCREENS}/broker-invoice-390.png` });
  await her.setViewportSize({ width: 1280, height: 900 });
  // The panel with its table and refusal passes axe (serious and critical rules).
  expect(
    (await severeAxeViolations(her, '[data-testid="broker-invoice"]')).map((violation) => violation.id),
  ).toEqual([]);

  // She cannot complete the task: the server refuses it, in the task's own words.
  await chooseCompleted(her, 'Recepción Factura Broker');
  await expect(taskCard(her, 'Recepción Factura Broker').getByRole('alert')).toHaveText(blocked);
  await expect(status(her, 'Recepción Factura Broker')).toHaveValue('Pendiente');

  // The administrator accepts the difference, saying why.
  await page.goto(`/pagos/flujo/${flowId}`);
  const adminPanel = page.getByTestId('broker-invoice');
  await adminPanel.getByRole('button', { name: 'Aceptar diferencia' }).click();
  const dialog = page.getByRole('dialog', { name: 'Aceptar diferencia de la factura' });
  // No reason typed: the button is disabled (issue 53).
  await expect(dialog.getByRole('button', { name: 'Aceptar diferencia' })).toBeDisabled();
  await dialog.getByLabel('Motivo').fill('El broker facturó la UF del día de emisión; se paga lo facturado');
  await dialog.getByRole('button', { name: 'Aceptar diferencia' }).click();
  await expect(dialog).toBeHidden();
  await expect(adminPanel.getByTestId('invoice-acceptance')).toContainText(
    'El broker facturó la UF del día de emisión; se paga lo facturado',
  );
  await expect(adminPanel.getByText('Diferencia aceptada', { exact: true }).first()).toBeVisible();
  await expect(adminPanel.getByTestId('invoice-block')).toHaveCount(0);

  // The flow's 'Historial' tells it.
  await page.getByRole('button', { name: 'Historial', exact: true }).click();
  const history = page.getByRole('dialog', { name: 'Historial' });
  await expect(
    history.getByText('El broker facturó la UF del día de emisión; se paga lo facturado').first(),
  ).toBeVisible();
  await history.getByRole('button', { name: 'Cerrar historial' }).click();

  // Now Paula completes the task.
  await her.reload();
  await expect(her.getByTestId('broker-invoice').getByTestId('invoice-acceptance')).toBeVisible();
  await chooseCompleted(her, 'Recepción Factura Broker');
  await expect(status(her, 'Recepción Factura Broker')).toHaveValue('Completada');

  // The folio is the restricted 'Factura del broker''s fact (issue 56, decision 0076): the payments
  // team reads it in the commission ('Factura 1'); a KAM, who may not read those documents, sees the
  // invoice's check but no folio, on the flow and in the commission, as the server answers.
  await her.goto(`/pagos/${reservation.reservationId}`);
  await expect(her.getByRole('textbox', { name: 'Factura 1', exact: true })).toHaveValue(folio);
  const kam = await newStaffUser(page, browser, origin, {
    firstName: 'Kevin',
    lastName: 'Comercial',
    position: 'KAM',
    userType: 'KAM',
  });
  await kam.page.goto(`/pagos/flujo/${flowId}`);
  const kamPanel = kam.page.getByTestId('broker-invoice');
  await expect(kamPanel.getByText('Diferencia aceptada', { exact: true }).first()).toBeVisible();
  await expect(kamPanel.getByTestId('invoice-line-total')).toContainText('$ 4.000.001');
  await expect(kamPanel.getByTestId('invoice-folio')).toHaveCount(0);
  await expect(kamPanel).not.toContainText(folio);
  await kam.page.setViewportSize({ width: 1440, height: 900 });
  await kamPanel.screenshot({ path: `${SCREENS}/broker-invoice-kam-1440.png` });
  await kam.page.setViewportSize({ width: 390, height: 844 });
  await kamPanel.screenshot({ path: `${SCREENS}/broker-invoice-kam-390.png` });
  await kam.page.setViewportSize({ width: 1440, height: 900 });
  await kam.page.goto(`/pagos/${reservation.reservationId}`);
  await expect(kam.page.getByTestId('commission-folios-hidden')).toBeVisible();
  await expect(kam.page.getByRole('textbox', { name: 'Factura 1', exact: true })).toHaveCount(0);
  await expect(kam.page.getByRole('textbox', { name: 'Orden de compra', exact: true })).toHaveCount(0);
  await expect(kam.page.locator('body')).not.toContainText(folio);
  await kam.page.screenshot({ path: `${SCREENS}/commission-kam-1440.png`, fullPage: true });
  await kam.page.setViewportSize({ width: 390, height: 844 });
  await kam.page.screenshot({ path: `${SCREENS}/commission-kam-390.png`, fullPage: true });
  await kam.close();
  await paula.close();
});
