import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import readXlsxFile from 'read-excel-file/node';
import {
  FIRST_PAYMENT_BEFORE_INVOICE,
  FIRST_PAYMENT_INVOICE_TO_FINANCE,
} from '../src/server/test/payment-flow-tasks';
import { formatRut } from '../src/shared/domain/rut';
import { apiReservation, completePaymentTasks, newStaffUser, uniqueRut, uniqueText } from './fixtures';

// Issues 33 and 53: 'Nómina de pago' — the broker's bank data typed on the broker form by the
// payments team, held out of the batch as 'Cuenta por verificar' until another person verifies it,
// the payment then put into a batch, the bank file exported (read back by an independent reader)
// and the batch marked paid on the bank's date, yesterday, by the payments team: /pagos shows the
// payment completed on that day.

const SCREENS = '.tmp/screens';

const section = (page: Page, legend: string) => page.getByRole('group', { name: legend });

/** 'YYYY-MM-DD' of today in Santiago, shifted by some days. */
function santiagoDay(shift = 0): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Santiago' }).format(new Date());
  const [y, m, d] = today.split('-').map(Number);
  return new Date(Date.UTC(y!, m! - 1, d! + shift)).toISOString().slice(0, 10);
}

/** The side menu gone off the phone's screen (its slide finished): the content starts at the left edge. */
async function settled(page: Page) {
  await expect.poll(async () => (await page.locator('main').boundingBox())?.x).toBe(0);
  await expect
    .poll(async () => {
      const menu = await page.locator('.mantine-AppShell-navbar').boundingBox();
      return menu === null || menu.x + menu.width <= 0;
    })
    .toBe(true);
}

test('nómina de pago: la cuenta cambiada por pagos y verificada por otra persona, el pago en una nómina, el archivo del banco y la nómina pagada ayer', async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  await page.goto('/dashboard');
  const origin = new URL(page.url()).origin;
  const headers = { origin };
  const word = uniqueText('').trim();

  // A broker of this journey, without bank data yet.
  const brokerRut = uniqueRut();
  const created = await page.request.post('/api/brokers', {
    headers,
    data: {
      rut: brokerRut,
      name: `Corredora Nómina ${word}`,
      businessName: `Corredora Nómina ${word} SpA`,
      constitutionDate: '2012-05-02',
      constitutionNotary: 'Notaría Uno',
      legalRepresentative: 'Ana Soto',
      legalRepresentativeRut: uniqueRut(),
      commercialAddress: 'Av. Providencia 1000',
      commercialAddressCommune: 'Providencia',
      commercialContactName: 'Luis Díaz',
      kamName: 'Pedro Kam',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const broker = (await created.json()).broker as { id: string; name: string };

  // Paula, of the payments team, types its bank data on the broker form: an incomplete account is refused.
  const paula = await newStaffUser(page, browser, origin);
  const her = paula.page;
  await her.goto(`/brokers/editar/${broker.id}`);
  const bank = section(her, 'Datos Bancarios');
  await bank.getByRole('textbox', { name: 'Banco' }).fill('Banco Santander');
  await her.getByRole('button', { name: 'Guardar' }).click();
  await expect(
    bank
      .getByText(
        'Complete el banco, el tipo y el número de cuenta, el titular y su RUT, o deje los cinco vacíos',
      )
      .first(),
  ).toBeVisible();
  await bank.getByRole('combobox', { name: 'Tipo de Cuenta' }).click();
  await her.getByRole('option', { name: 'Cuenta Corriente', exact: true }).click();
  await bank.getByRole('textbox', { name: 'Número de Cuenta' }).fill('0-000-71-23456-8');
  await bank.getByRole('textbox', { name: 'Titular de la Cuenta' }).fill(`Corredora Nómina ${word} SpA`);
  await bank.getByRole('textbox', { name: 'RUT del Titular' }).fill(formatRut(brokerRut));
  await bank.getByRole('textbox', { name: 'Correo para Pagos' }).fill(`pagos-${word}@corredora.cl`);
  await her.getByRole('button', { name: 'Guardar' }).click();
  await expect(her).toHaveURL(/\/brokers(\?.*)?$/);
  await her.goto(`/brokers/editar/${broker.id}`);
  await expect(section(her, 'Datos Bancarios').getByText('Cuenta por verificar')).toBeVisible();
  // Its author cannot verify it: no 'Verificar cuenta' for her.
  await expect(her.getByRole('button', { name: 'Verificar cuenta' })).toHaveCount(0);

  // A reservation sold through it: a commission of UF 100 in one payment, IVA included.
  const client = await page.request.post('/api/clients', {
    headers,
    data: {
      rut: uniqueRut(),
      firstName: 'Marta',
      lastName: `Nómina ${word}`,
      birthDate: '1985-02-11',
      phone: null,
      email: null,
    },
  });
  expect(client.status(), await client.text()).toBe(201);
  const options = await (await page.request.get('/api/reservations/form-options')).json();
  const project = options.projects.find(
    (candidate: { name: string }) => candidate.name === 'Edificio Los Aromos',
  );
  const apartment = `NP${word.slice(-6)}`;
  const reservation = await page.request.post('/api/reservations', {
    headers,
    data: {
      reservationNumber: uniqueText('NP').replace(' ', '-'),
      clientId: (await client.json()).client.id,
      projectId: project.id,
      sellerId: null,
      reservationDate: '2026-10-05',
      apartmentNumber: apartment,
      apartmentPrice: '3000',
      columnDiscount: '0',
      additionalDiscount: '0',
      otherDiscount: '0',
      creditPayment: '2900',
      isWithBroker: true,
      brokerId: broker.id,
      commission: {
        commissionIncludesTax: true,
        commissionForDiscount: true,
        paysSecondary: false,
        commissionAmount: '100',
        numberOfPayments: 1,
        firstPaymentPercentage: 100,
      },
    },
  });
  expect(reservation.status(), await reservation.text()).toBe(201);
  const { id: reservationId, reservationNumber } = (await reservation.json()).reservation;

  // Its payment flow worked up to 'Fecha de Pago', the broker's invoice recorded and matching.
  const opened = await page.request.post(`/api/payments/${reservationId}/first-flow`, { headers });
  const flowId = (await opened.json()).flowId as string;
  expect((await page.request.post(`/api/payment-flows/${flowId}/start`, { headers })).status()).toBe(200);
  await completePaymentTasks(page, flowId, FIRST_PAYMENT_BEFORE_INVOICE);
  const issueDate = santiagoDay(-12);
  const uf = await page.request.put(`/api/uf-values/${issueDate}`, { headers, data: { value: '40000,00' } });
  expect([200, 409]).toContain(uf.status());
  const invoiceTask = (await (await page.request.get(`/api/payment-flows/${flowId}/invoices`)).json())
    .tasks[0];
  const folio = String(100_000 + Math.floor(Math.random() * 899_999));
  const invoice = await page.request.post(
    `/api/payment-flows/${flowId}/tasks/${invoiceTask.taskRowId}/invoice`,
    {
      headers,
      data: {
        kind: 'taxed',
        issuerRut: brokerRut,
        folio,
        issueDate,
        receivedDate: issueDate,
        netAmount: '3361345',
        vatAmount: '638655',
        totalAmount: '4000000',
      },
    },
  );
  expect(invoice.status(), await invoice.text()).toBe(201);
  await completePaymentTasks(page, flowId, FIRST_PAYMENT_INVOICE_TO_FINANCE);
  // The office's record says 'Fecha de Pago' was reached three days ago (an administrator's dates):
  // the bank may have paid it yesterday.
  const flowView = (await (await page.request.get(`/api/payment-flows/${flowId}`)).json()).flow;
  const paymentDateTask = flowView.stages
    .flatMap((stage: { tasks: { id: string; name: string }[] }) => stage.tasks)
    .find((task: { name: string }) => task.name === 'Fecha de Pago');
  const dated = await page.request.put(`/api/payment-flows/${flowId}/tasks/${paymentDateTask.id}/dates`, {
    headers,
    data: { startedAt: `${santiagoDay(-3)}T12:00:00.000Z` },
  });
  expect(dated.status(), await dated.text()).toBe(200);

  // Paula opens Pagos → 'Nómina de pago': the payment waits for the account's verification.
  await her.goto('/pagos');
  await her.getByRole('tab', { name: 'Nómina de pago' }).click();
  await expect(her).toHaveURL(/\/pagos\/nomina$/);
  const ready = her.getByRole('table', { name: 'Pagos listos para pagar' });
  const row = ready.getByRole('row').filter({ hasText: reservationNumber });
  await expect(row).toContainText('No se puede pagar');
  await expect(row).toContainText('Cuenta por verificar');

  // Another person (the administrator) verifies the change on the broker form.
  await page.goto(`/brokers/editar/${broker.id}`);
  const adminBank = section(page, 'Datos Bancarios');
  await expect(adminBank.getByText('Cuenta por verificar')).toBeVisible();
  await adminBank.getByRole('button', { name: 'Verificar cuenta' }).click();
  await expect(adminBank.getByText('Cuenta verificada')).toBeVisible();
  mkdirSync(SCREENS, { recursive: true });
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await adminBank.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SCREENS}/broker-bank-${width}.png` });
  }
  // Configuración → Pagos: the layout with its preview (the generic one).
  await page.goto('/configuracion/pagos');
  await expect(page.getByLabel('Vista previa del archivo del banco')).toContainText('RUT Beneficiario;');
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SCREENS}/payment-settings-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  await her.reload();
  await expect(row).toContainText(broker.name);
  await expect(row).toContainText('Banco Santander');
  await expect(row).toContainText('Cuenta Corriente 000071234568');
  await expect(row).toContainText('$ 4.000.000');
  // One amount paid, explained: the invoice's total beside UF × the day's value, and their difference.
  await expect(row).toContainText('UF × valor del día: $ 4.000.000 · Sin diferencia');
  await expect(row).toContainText('Se puede pagar');

  mkdirSync(SCREENS, { recursive: true });
  await her.setViewportSize({ width: 1440, height: 900 });
  await her.screenshot({ path: `${SCREENS}/payment-batches-1440.png`, fullPage: true });
  await her.setViewportSize({ width: 390, height: 844 });
  await settled(her);
  await expect(her.getByRole('list', { name: 'Pagos listos para pagar' })).toBeVisible();
  await her.screenshot({ path: `${SCREENS}/payment-batches-390.png`, fullPage: true });
  await her.setViewportSize({ width: 1280, height: 900 });

  await row.getByRole('checkbox', { name: `Elegir el pago 1 de la reserva ${reservationNumber}` }).check();
  await her.getByRole('button', { name: /^Crear nómina \(1 · \$ 4\.000\.000\)$/ }).click();
  await expect(her).toHaveURL(/\/pagos\/nomina\/[0-9a-f-]{36}$/);
  await expect(her.getByRole('heading', { name: /^Nómina de pago N° \d+$/ })).toBeVisible();
  const title = (await her.getByRole('heading', { name: /^Nómina de pago N° \d+$/ }).textContent())!;
  const lines = her.getByRole('table', { name: /^Pagos de la nómina/ });
  await expect(lines.getByRole('row').filter({ hasText: formatRut(brokerRut) })).toContainText('$ 4.000.000');

  await her.setViewportSize({ width: 1440, height: 900 });
  await her.screenshot({ path: `${SCREENS}/payment-batch-1440.png`, fullPage: true });
  await her.setViewportSize({ width: 390, height: 844 });
  await settled(her);
  await her.screenshot({ path: `${SCREENS}/payment-batch-390.png`, fullPage: true });
  await her.setViewportSize({ width: 1280, height: 900 });

  // The bank's file, as Excel and CSV, read back by a reader other than the writer.
  const xlsxDownload = her.waitForEvent('download');
  await her.getByRole('link', { name: 'Exportar Excel' }).click();
  const xlsx = await xlsxDownload;
  expect(xlsx.suggestedFilename()).toMatch(/^nomina_pago_\d+_\d{4}-\d{2}-\d{2}\.xlsx$/);
  const sheets = await readXlsxFile(readFileSync((await xlsx.path())!));
  expect(sheets[0]!.data[0]).toEqual([
    'RUT Beneficiario',
    'Nombre Beneficiario',
    'Banco',
    'Tipo de Cuenta',
    'Número de Cuenta',
    'Monto',
    'Referencia',
    'Correo Electrónico',
  ]);
  expect(sheets[0]!.data[1]).toEqual([
    brokerRut,
    `Corredora Nómina ${word} SpA`,
    'Banco Santander',
    'Cuenta Corriente',
    '000071234568',
    4000000,
    `Comision reserva ${reservationNumber} pago 1`,
    `pagos-${word}@corredora.cl`,
  ]);
  const csvDownload = her.waitForEvent('download');
  await her.getByRole('link', { name: 'Exportar CSV' }).click();
  const csv = readFileSync((await (await csvDownload).path())!, 'utf8');
  expect(csv).toContain(
    `${brokerRut};Corredora Nómina ${word} SpA;Banco Santander;Cuenta Corriente;000071234568;4000000;`,
  );
  // The file in the bank's layout (Configuración → Pagos; the generic one here): one line per payment.
  const bankDownload = her.waitForEvent('download');
  await her.getByRole('link', { name: 'Archivo del banco' }).click();
  const bankFile = readFileSync((await (await bankDownload).path())!, 'utf8');
  expect(bankFile.split('\r\n')).toEqual([
    'RUT Beneficiario;Nombre Beneficiario;Banco;Tipo de Cuenta;Número de Cuenta;Monto;Referencia;Correo Electrónico',
    `${brokerRut};Corredora Nómina ${word} SpA;Banco Santander;Cuenta Corriente;000071234568;4000000;Comision reserva ${reservationNumber} pago 1;pagos-${word}@corredora.cl`,
    '',
  ]);

  // Marked paid on the bank's date, yesterday, by Paula: the payment flow's last task completed by the engine.
  await her.getByRole('button', { name: 'Marcar pagada' }).click();
  const batchNumber = /\d+$/.exec(title)![0];
  const dialog = her.getByRole('dialog', { name: `Marcar pagada la nómina N° ${batchNumber}` });
  const paidDate = dialog.getByRole('textbox', { name: 'Fecha de pago' });
  await expect(paidDate).toBeEnabled();
  const yesterday = santiagoDay(-1);
  const [y, m, d] = yesterday.split('-');
  await paidDate.fill(`${d}/${m}/${y}`);
  await paidDate.press('Tab');
  await dialog.getByRole('button', { name: 'Marcar pagada' }).click();
  await expect(dialog).toBeHidden();
  await expect(her.getByText('Pagada', { exact: true }).first()).toBeVisible();
  await expect(her.getByText(`${d}/${m}/${y}`).first()).toBeVisible();
  await expect(her.getByRole('button', { name: 'Marcar pagada' })).toHaveCount(0);

  // /pagos shows the payment completed; its flow too.
  await her.goto(`/pagos?q=${encodeURIComponent(apartment)}`);
  const paymentRow = her.getByRole('row').filter({ hasText: apartment });
  await expect(paymentRow.getByLabel('Pago 1: Completado')).toBeVisible();
  await her.goto(`/pagos/flujo/${flowId}`);
  await expect(her.getByTestId('flow-status')).toHaveText('Completado');

  // The invoice is the record: the 'Liquidación de Comisión' opened from the flow cites it, read
  // back from the PDF by poppler's pdftotext (a reader other than the writer).
  const statement = her.waitForResponse((response) => response.url().includes('/commission-statement.pdf'));
  await her.getByRole('button', { name: 'Liquidación de Comisión (PDF)' }).click();
  const answered = await statement;
  expect(answered.status()).toBe(200);
  expect(answered.headers()['content-type']).toContain('application/pdf');
  // The bytes the page received (read again with her session: a fetched body is not kept by the browser).
  const pdf = await (await her.request.get(answered.url())).body();
  // The page opens it in a tab of its own: closed once read.
  for (const opened of her.context().pages()) if (opened !== her) await opened.close();
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  mkdirSync(SCREENS, { recursive: true });
  const pdfPath = `${SCREENS}/commission-statement-${folio}.pdf`;
  writeFileSync(pdfPath, pdf);
  const text = execFileSync('pdftotext', ['-layout', pdfPath, '-'], { encoding: 'utf8' });
  expect(text).toContain('Liquidación de Comisión');
  // Payment 1's row names the checked invoice's folio and its issue date.
  const [iy, im, id] = issueDate.split('-');
  const paymentLine = text.split('\n').find((line) => line.includes(folio));
  expect(paymentLine, text).toBeDefined();
  expect(paymentLine).toContain(`${id}/${im}/${iy}`);
  await paula.close();
});

// Issue 53: a promotion's payee account waits for a second person, as a broker's. Entered by the
// administrator, 'Cuenta por verificar' with no button for its author; Paula, of the payments team,
// verifies it on the reservation's screen.
test('promoción: la cuenta del beneficiario espera la verificación de otra persona de pagos', async ({
  page,
  browser,
}) => {
  await page.goto('/dashboard');
  const origin = new URL(page.url()).origin;
  const reservation = await apiReservation(page.request, origin, {
    firstName: 'Olga',
    lastName: uniqueText('Promoción'),
    prefix: 'PV',
  });
  const beneficiary = uniqueText('Beneficiaria');
  const added = await page.request.post(`/api/reservations/${reservation.reservationId}/promotions`, {
    headers: { origin },
    data: {
      amount: '25',
      beneficiary,
      rut: uniqueRut(),
      bank: 'Banco de Chile',
      accountType: 'Cuenta Corriente',
      accountNumber: '000123456789',
      email: 'beneficiaria@correo.cl',
    },
  });
  expect(added.status(), await added.text()).toBe(201);

  await page.goto(`/reservas/editar/${reservation.reservationId}`);
  const table = page.getByRole('table', { name: 'Promociones' });
  const row = table.getByRole('row').filter({ hasText: beneficiary });
  await expect(row).toContainText('Cuenta por verificar');
  // Its author is offered no verification.
  await expect(row.getByRole('button', { name: `Verificar cuenta de ${beneficiary}` })).toHaveCount(0);

  const paula = await newStaffUser(page, browser, origin);
  const her = paula.page;
  await her.goto(`/reservas/editar/${reservation.reservationId}`);
  const herRow = her
    .getByRole('table', { name: 'Promociones' })
    .getByRole('row')
    .filter({ hasText: beneficiary });
  await expect(herRow).toContainText('Cuenta por verificar');
  mkdirSync(SCREENS, { recursive: true });
  for (const width of [1440, 390]) {
    await her.setViewportSize({ width, height: 900 });
    await herRow.scrollIntoViewIfNeeded();
    await her.screenshot({ path: `${SCREENS}/promotion-account-${width}.png` });
  }
  await her.setViewportSize({ width: 1280, height: 900 });
  await herRow.getByRole('button', { name: `Verificar cuenta de ${beneficiary}` }).click();
  await expect(herRow).toContainText('Cuenta verificada');
  await expect(herRow.getByRole('button', { name: `Verificar cuenta de ${beneficiary}` })).toHaveCount(0);
  await paula.close();
});

// Issue 53: an agency's account, entered by one administrator, verified by another on its form.
test('inmobiliaria: la cuenta ingresada por una administradora la verifica otra', async ({
  page,
  browser,
}) => {
  await page.goto('/dashboard');
  const origin = new URL(page.url()).origin;
  const name = uniqueText('Inmobiliaria Cuenta');
  const created = await page.request.post('/api/settings/agencies', {
    headers: { origin },
    data: {
      rut: uniqueRut(),
      businessName: name,
      bank: 'Banco Estado',
      accountType: 'Cuenta Corriente',
      accountNumber: '000987654321',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const agency = (await created.json()).agency as { id: string };

  await page.goto(`/configuracion/inmobiliarias/editar/${agency.id}`);
  await expect(page.getByText('Cuenta por verificar')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Verificar cuenta' })).toHaveCount(0);

  const other = await newStaffUser(page, browser, origin, {
    firstName: 'Olivia',
    lastName: 'Administradora',
    position: 'Gerenta',
    userType: 'Administrador',
  });
  const her = other.page;
  await her.goto(`/configuracion/inmobiliarias/editar/${agency.id}`);
  await expect(her.getByText('Cuenta por verificar')).toBeVisible();
  mkdirSync(SCREENS, { recursive: true });
  for (const width of [1440, 390]) {
    await her.setViewportSize({ width, height: 900 });
    await her.screenshot({ path: `${SCREENS}/agency-account-${width}.png`, fullPage: true });
  }
  await her.setViewportSize({ width: 1280, height: 900 });
  await her.getByRole('button', { name: 'Verificar cuenta' }).click();
  await expect(her.getByText('Cuenta verificada')).toBeVisible();
  await her.goto('/configuracion/inmobiliarias');
  await expect(her.getByRole('row').filter({ hasText: name })).toContainText('Cuenta verificada');
  await other.close();
});
