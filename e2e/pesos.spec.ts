import { readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { apiReservation, uniqueText } from './fixtures';

// Issue 33: UF values loaded in Configuración, and the pesos beside the UF on /pagos, the payment
// flow, the consolidated view and the reports — estimated while unpaid, frozen once paid.

/** 'YYYY-MM-DD' of today in Santiago, shifted by some days. */
function santiagoDay(shift = 0): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Santiago' }).format(new Date());
  const [y, m, d] = today.split('-').map(Number);
  return new Date(Date.UTC(y!, m! - 1, d! + shift)).toISOString().slice(0, 10);
}

const shown = (date: string) => date.split('-').reverse().join('/');

/** The UF of a day in this journey: 40.000,00 five days ago, up 2,50 a day. */
function ufOf(shift: number): string {
  return (40_000 + (shift + 5) * 2.5).toFixed(2);
}
const esCl = (value: string) => {
  const [whole, cents] = value.split('.');
  return `${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, '.')},${cents}`;
};

/** Completes every open task of a payment flow through the API, as an administrator. */
async function completeFlow(page: Page, flowId: string) {
  const origin = new URL(page.url()).origin;
  for (;;) {
    const flow = (await (await page.request.get(`/api/payment-flows/${flowId}`)).json()).flow;
    const open = flow.stages
      .flatMap((stage: { tasks: { id: string; status: string; version: number }[] }) => stage.tasks)
      .find((task: { status: string }) => task.status === 'pending' || task.status === 'in_progress');
    if (!open) return;
    const done = await page.request.put(`/api/payment-flows/${flowId}/tasks/${open.id}/status`, {
      headers: { origin },
      data: { status: 'completed', version: open.version },
    });
    expect(done.status(), await done.text()).toBe(200);
  }
}

test('valores UF importados y los pesos junto a la UF: estimado mientras no se paga, fijo al pagar', async ({
  page,
}) => {
  test.setTimeout(240_000);
  // Configuración → Valores UF: a list of dates and values around today, imported from a CSV.
  const month = santiagoDay().slice(0, 7);
  await page.goto(`/configuracion/valores-uf?mes=${month}`);
  await expect(page.getByRole('heading', { name: 'Valores UF' })).toBeVisible();
  const lines = ['Fecha;Valor'];
  for (let shift = -5; shift <= 5; shift++) lines.push(`${shown(santiagoDay(shift))};${esCl(ufOf(shift))}`);
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Importar tabla' }).click();
  await (await chooser).setFiles({
    name: 'uf.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(lines.join('\r\n')),
  });
  const preview = page.getByRole('dialog', { name: 'Importar valores UF' });
  await expect(preview.getByTestId('uf-import-preview')).toContainText('11 días');
  await preview.getByRole('button', { name: 'Importar' }).click();
  await expect(preview).toBeHidden();
  const todayRow = page.getByTestId(`uf-day-${santiagoDay()}`);
  await expect(todayRow).toContainText(`$ ${esCl(ufOf(0))}`);
  await expect(todayRow).toContainText('Archivo');

  // A correction that jumps more than 1 % asks first; confirmed, it is saved with 'Usuario'.
  const next = santiagoDay(6);
  if (next.startsWith(month)) {
    await page.getByRole('button', { name: `Agregar el valor del ${shown(next)}` }).click();
    const dialog = page.getByRole('dialog', { name: `Agregar valor UF del ${shown(next)}` });
    await dialog.getByLabel('Valor UF (pesos)').fill('45.000,00');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await expect(dialog.getByText(/difiere en .* % del día anterior/)).toBeVisible();
    await dialog.getByLabel('Confirmo este valor').check();
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId(`uf-day-${next}`)).toContainText('$ 45.000,00');
  }

  // A commission of UF 100 in one payment: on /pagos, today's estimate.
  const reservation = await apiReservation(page.request, new URL(page.url()).origin, {
    firstName: 'Elena',
    lastName: uniqueText('Pesos'),
    prefix: 'UF',
    commission: { commissionAmount: '100', numberOfPayments: 1, firstPaymentPercentage: 100 },
  });
  const estimate = `$ ${(Number(ufOf(0)) * 100).toLocaleString('es-CL')}`;
  await page.goto(`/pagos?q=${encodeURIComponent(reservation.apartment)}`);
  const row = page.getByRole('row').filter({ hasText: reservation.apartment });
  await expect(row.getByTestId('clp-estimated')).toContainText(estimate);
  await expect(row.getByTestId('clp-estimated')).toContainText('estimado');

  // The payment flow shows it too; in progress, so does Informe de Pagos Brokers.
  await row.getByText(reservation.number).click();
  await expect(page).toHaveURL(/\/pagos\/flujo\//);
  const flowId = new URL(page.url()).pathname.split('/').pop()!;
  await expect(page.getByTestId('payment-clp')).toContainText(estimate);
  await expect(page.getByTestId('payment-clp')).toContainText('estimado');
  const origin = new URL(page.url()).origin;
  expect(
    (await page.request.post(`/api/payment-flows/${flowId}/start`, { headers: { origin } })).status(),
  ).toBe(200);

  await page.goto(`/informes/pagos-brokers?q=${encodeURIComponent(reservation.number)}`);
  const reportRow = page.getByRole('row').filter({ hasText: reservation.number });
  await expect(reportRow).toContainText(estimate);
  await expect(reportRow).toContainText(`$ ${esCl(ufOf(0))}`);
  await expect(reportRow).toContainText('estimado');
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Exportar Excel' }).click();
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(readFileSync((await (await download).path())!) as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0]!;
  const header = (sheet.getRow(1).values as ExcelJS.CellValue[]).slice(1);
  expect(header.slice(-4)).toEqual(['Monto UF', 'Valor UF', 'Monto CLP', 'CLP']);
  const exported: ExcelJS.CellValue[][] = [];
  sheet.eachRow((line) => {
    const values = (line.values as ExcelJS.CellValue[]).slice(1);
    if (values[0] === reservation.number) exported.push(values);
  });
  expect(exported).toHaveLength(1);
  expect(exported[0]!.slice(-4)).toEqual([100, Number(ufOf(0)), Number(ufOf(0)) * 100, 'Estimado']);

  // Paid today: the pesos are frozen with the payment, no longer 'estimado'.
  await completeFlow(page, flowId);
  await page.goto(`/pagos/flujo/${flowId}`);
  await expect(page.getByTestId('payment-clp').getByTestId('clp-frozen')).toContainText(estimate);
  await expect(page.getByTestId('payment-clp')).toContainText(`del ${shown(santiagoDay())}`);
  await page.goto(`/pagos?q=${encodeURIComponent(reservation.apartment)}`);
  await expect(
    page.getByRole('row').filter({ hasText: reservation.apartment }).getByTestId('clp-frozen'),
  ).toContainText(estimate);

  // The commission's page: each payment's pesos under its UF, frozen.
  await page.goto(`/pagos/${reservation.reservationId}`);
  await expect(page.getByTestId('payment-1-clp').getByTestId('clp-frozen')).toContainText(estimate);

  // The consolidated view of the broker: the pesos paid under the UF paid (its export's 'Pagado CLP').
  const broker = (await (await page.request.get('/api/brokers?page=1&pageSize=1')).json()).rows[0].id;
  await page.goto(
    `/informes/consolidado-brokers?broker=${broker}&orden=reservationNumber&dir=desc&porPagina=100`,
  );
  const consolidatedRow = page.getByRole('row').filter({ hasText: reservation.number });
  await expect(consolidatedRow.getByTestId('paid-clp')).toContainText(estimate);
});
