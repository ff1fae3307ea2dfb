import { readFile } from 'node:fs/promises';
import { type APIRequestContext, type Download, expect, type Page, test } from '@playwright/test';
import { pickSearchedOption } from './fixtures';

// Issue 16: the reports ('Informes') on the e2e dataset — filters, a sort, the total row, the empty
// texts, the CSV and XLSX downloads — and the consolidated view's at-risk popup.

const table = (page: Page, name: string) => page.getByRole('table', { name });

async function download(page: Page, button: 'Exportar CSV' | 'Exportar Excel'): Promise<Download> {
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: button }).click(),
  ]);
  return file;
}

/** The CSV as Chilean Excel reads it: BOM, ';' separated; the first line the headers. */
async function csvLines(file: Download): Promise<string[]> {
  const text = await readFile((await file.path())!, 'utf8');
  expect(text.charCodeAt(0)).toBe(0xfeff);
  return text.slice(1).trim().split('\r\n');
}

/** An XLSX is a zip: its first bytes say so. */
async function expectXlsx(file: Download, name: RegExp) {
  expect(file.suggestedFilename()).toMatch(name);
  const bytes = await readFile((await file.path())!);
  expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
}

function todayInSantiago(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Santiago' }).format(new Date());
}

test.describe('Informes', () => {
  test('Informe de Comisiones: latest month preselected, sort, total row, downloads, empty month', async ({
    page,
  }) => {
    const months = (await (await page.request.get('/api/reports/commissions/months?kind=payment')).json())
      .months;
    expect(months.length).toBeGreaterThan(0);
    await page.goto('/informes/comisiones');
    await expect(page.getByRole('heading', { name: 'Informe de Comisiones' })).toBeVisible();
    const month = page.getByRole('combobox', { name: 'Mes' });
    await expect(month).toHaveValue(/^[a-z]+ de \d{4}$/);
    const report = table(page, 'Informe de Comisiones');
    await expect(report.getByRole('columnheader', { name: /Monto Neto/ })).toBeVisible();
    await expect(report.getByText('Totales (excluye resciliadas)')).toBeVisible();
    const first = (
      await (
        await page.request.get(`/api/reports/commissions?kind=payment&month=${months[0].slice(0, 7)}`)
      ).json()
    ).rows[0];
    await expect(report.getByRole('row').nth(1)).toContainText(first.reservationNumber);

    await report.getByRole('button', { name: /^Comisión/ }).click();
    await expect(page).toHaveURL(/orden=commissionAmount&dir=asc/);

    const csv = await download(page, 'Exportar CSV');
    const key = months[0].slice(0, 7);
    expect(csv.suggestedFilename()).toBe(`informe_comisiones_${key}.csv`);
    const lines = await csvLines(csv);
    // The pesos beside the UF (issue 33): the UF value of the payment's day, the CLP amount and
    // whether it is paid (frozen) or estimated.
    expect(lines[0]).toBe(
      'N° Reserva;Estado;Cliente;Proyecto;Depto.;Broker;Comisión;Monto Neto;Valor UF;Monto CLP;CLP',
    );
    expect(lines.at(-1)).toMatch(/^Totales \(excluye resciliadas\);/);
    await expectXlsx(
      await download(page, 'Exportar Excel'),
      new RegExp(`^informe_comisiones_${key}\\.xlsx$`),
    );

    // Another month from the list (the dropdown of the months with data), then one without data.
    if (months.length > 1) {
      await month.click();
      await page.getByRole('listbox').getByRole('option').nth(1).click();
      await expect(page).toHaveURL(new RegExp(`mes=${months[1].slice(0, 7)}`));
    }
    await page.goto('/informes/comisiones?mes=1990-01');
    await expect(page.getByText('No hay comisiones para el mes seleccionado')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Exportar CSV' })).toBeDisabled();
  });

  test('Proyección Comisiones: a row opens the reservation flow; its empty text', async ({ page }) => {
    await page.goto('/informes/proyeccion-comisiones');
    await expect(page.getByRole('heading', { name: 'Proyección Comisiones' })).toBeVisible();
    const months = (await (await page.request.get('/api/reports/commissions/months?kind=projection')).json())
      .months;
    const first = (
      await (
        await page.request.get(`/api/reports/commissions?kind=projection&month=${months[0].slice(0, 7)}`)
      ).json()
    ).rows.find((row: { saleFlowId: string | null }) => row.saleFlowId);
    const report = table(page, 'Proyección Comisiones');
    await report.getByRole('row').filter({ hasText: first.reservationNumber }).click();
    await expect(page).toHaveURL(/\/flujo-reservas\/[0-9a-f-]{36}$/);
    await page.goto('/informes/proyeccion-comisiones?mes=1990-01');
    await expect(page.getByText('No hay proyecciones para el mes seleccionado')).toBeVisible();
  });

  test('Informe de Brokers: nothing until a broker or both dates; a broker, a date type; total and CSV', async ({
    page,
  }) => {
    await page.goto('/informes/brokers');
    await expect(
      page.getByText('Seleccione un broker o un rango de fechas para ver el informe'),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Exportar CSV' })).toBeDisabled();

    const all = await (
      await page.request.get('/api/reports/brokers?fromDate=1900-01-01&toDate=2100-12-31')
    ).json();
    const newest = all.rows[0];
    await pickSearchedOption(page, 'Broker', newest.brokerName, new RegExp(`^${newest.brokerName} - `));
    await expect(page).toHaveURL(/broker=[0-9a-f-]{36}/);
    const report = table(page, 'Informe de Brokers');
    // Newest reservation first.
    await expect(report.getByRole('row').nth(1)).toContainText(newest.reservationNumber);
    await expect(report.getByText('Totales (excluye resciliadas)')).toBeVisible();
    const csv = await download(page, 'Exportar CSV');
    expect(csv.suggestedFilename()).toBe(`informe_brokers_${todayInSantiago()}.csv`);
    const lines = await csvLines(csv);
    expect(lines[0]).toBe(
      'N° Reserva;Estado;Cliente;Proyecto;Broker;Fecha de Reserva;Promesa;Escritura;Comisión',
    );
    expect(lines[1]).toMatch(/;\d{2}\/\d{2}\/\d{4};/);

    // Every broker, by promise date over a wide range.
    await page.getByRole('button', { name: 'Limpiar filtros' }).click();
    await page.getByRole('combobox', { name: 'Tipo de fecha' }).click();
    await page.getByRole('option', { name: 'Promesa' }).click();
    await page.getByLabel('Fecha de inicio').fill('01/01/2000');
    await page.keyboard.press('Escape');
    await page.getByLabel('Fecha de término').fill('31/12/2099');
    await page.keyboard.press('Escape');
    await expect(page).toHaveURL(/tipoFecha=promise.*desde=2000-01-01.*hasta=2099-12-31/);
    // The list is live and journeys beside this one promise sales: the count shown is the server's
    // count read at the same moment, again until nothing changed in between.
    await expect(async () => {
      const promised = await (
        await page.request.get('/api/reports/brokers?dateType=promise&fromDate=2000-01-01&toDate=2099-12-31')
      ).json();
      await expect(page.getByText(new RegExp(`de ${promised.total}$`))).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 60_000 });
    await report.getByRole('button', { name: /^Broker/ }).click();
    await expect(page).toHaveURL(/orden=brokerName&dir=asc/);
  });

  test('Informe de Ventas: a project, the three cards, the Escrituración total and the XLSX', async ({
    page,
  }) => {
    await page.goto('/informes/ventas');
    await expect(
      page.getByText('Seleccione un proyecto o un rango de fechas para ver el informe'),
    ).toBeVisible();
    const sold = (
      await (await page.request.get('/api/reports/sales?fromDate=1900-01-01&toDate=2100-12-31')).json()
    ).rows[0];
    await page.getByRole('combobox', { name: 'Proyecto' }).click();
    await page.getByRole('option', { name: new RegExp(`^${sold.projectName} · `) }).click();
    const report = table(page, 'Informe de Ventas');
    await expect(report.getByText(sold.reservationNumber)).toBeVisible();
    for (const card of ['Precio Lista', 'Precio Mínimo', 'Total Escrituración']) {
      await expect(page.getByText(card, { exact: true })).toBeVisible();
    }
    await expect(page.getByText(/^UF \d/).first()).toBeVisible();
    await expect(report.getByText('Totales (excluye resciliadas)')).toBeVisible();
    await expectXlsx(await download(page, 'Exportar Excel'), /^informe_ventas_\d{4}-\d{2}-\d{2}\.xlsx$/);
  });

  test('Informe de Pagos Brokers: open tasks, most days first, overdue in red, search, empty text, a row opens the flow', async ({
    page,
  }) => {
    await page.goto('/informes/pagos-brokers');
    const report = table(page, 'Informe de Pagos Brokers');
    await expect(report.getByRole('button', { name: /^Días \(orden descendente\)/ })).toBeVisible();
    const answer = await (await page.request.get('/api/reports/broker-payments?pageSize=100')).json();
    if (answer.rows.some((row: { daysLate: number }) => row.daysLate > 0)) {
      await page.goto('/informes/pagos-brokers?orden=daysLate&dir=desc');
      await expect(report.getByText(/^Tarea atrasada/).first()).toBeVisible();
    }
    // Journeys beside this one open and complete payment tasks: the export is compared with the
    // report read right after it, again until nothing changed in between.
    await expect(async () => {
      const csv = await download(page, 'Exportar CSV');
      expect(csv.suggestedFilename()).toBe(`informe_pagos_brokers_${todayInSantiago()}.csv`);
      const { total } = await (await page.request.get('/api/reports/broker-payments?pageSize=1')).json();
      expect(await csvLines(csv)).toHaveLength(1 + total);
    }).toPass({ timeout: 60_000 });

    await page.getByRole('searchbox', { name: /Buscar por reserva/ }).fill('zzz-ninguna-tarea');
    await expect(page.getByText('No hay tareas pendientes de pago a brokers')).toBeVisible();
    await page.getByRole('searchbox', { name: /Buscar por reserva/ }).fill('');
    await report.getByRole('row').filter({ hasText: answer.rows[0].taskName }).first().click();
    await expect(page).toHaveURL(/\/pagos\/flujo\/[0-9a-f-]{36}$/);
  });
});

interface ConsolidatedRow {
  reservationNumber: string;
  isRescinded: boolean;
  atRisk: boolean;
}

/** A broker with a rescinded commission and one that is not at risk, from the dataset. */
async function brokerForRisk(request: APIRequestContext) {
  const brokers = (await (await request.get('/api/brokers?pageSize=100')).json()).rows as {
    id: string;
    name: string;
    businessName: string;
  }[];
  for (const broker of brokers) {
    const rows = (
      await (await request.get(`/api/reports/broker-consolidated?brokerId=${broker.id}&pageSize=100`)).json()
    ).rows as ConsolidatedRow[];
    const rescinded = rows.find((row) => row.isRescinded);
    const live = rows.find((row) => !row.isRescinded && !row.atRisk);
    if (rescinded && live) return { broker, rescinded, live };
  }
  throw new Error('the e2e dataset has no broker with a rescinded and a live commission');
}

test('Consolidado Brokers: cards, the at-risk popup, the disabled button on a rescinded unit', async ({
  page,
}) => {
  const { broker, rescinded, live } = await brokerForRisk(page.request);
  await page.goto('/informes/consolidado-brokers');
  await expect(page.getByText('Seleccione un broker para ver su consolidado')).toBeVisible();
  await pickSearchedOption(page, 'Broker', broker.name, `${broker.name} - ${broker.businessName}`);
  for (const card of ['Total Comisiones', 'Total Pagado', 'Total En Riesgo', 'Total Pendiente']) {
    await expect(page.getByText(card, { exact: true })).toBeVisible();
  }
  const report = table(page, 'Consolidado Brokers');
  await page.goto(`${page.url()}&porPagina=100`);
  const liveRow = report.getByRole('row').filter({ hasText: live.reservationNumber });
  await liveRow.getByRole('button', { name: 'Marcar En Riesgo' }).click();
  const dialog = page.getByRole('dialog', { name: 'Marcar En Riesgo' });
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog.getByText(/motivo/i).first()).toBeVisible();
  await dialog.getByLabel('Motivo del Riesgo').fill('Cliente sin aprobación de crédito');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog).toBeHidden();
  await expect(liveRow.getByText('En Riesgo', { exact: true })).toBeVisible();
  await expect(liveRow.getByText('Cliente sin aprobación de crédito')).toBeVisible();

  // Put it back: unchecked, the reason is cleared.
  await liveRow.getByRole('button', { name: 'Editar Riesgo' }).click();
  const edit = page.getByRole('dialog', { name: 'Editar Riesgo' });
  await edit.getByRole('checkbox', { name: 'Comisión en riesgo' }).uncheck();
  await edit.getByRole('button', { name: 'Guardar' }).click();
  await expect(edit).toBeHidden();
  await expect(liveRow.getByRole('button', { name: 'Marcar En Riesgo' })).toBeVisible();

  const rescindedRow = report.getByRole('row').filter({ hasText: rescinded.reservationNumber });
  const disabled = rescindedRow.getByRole('button', { name: /Riesgo/ });
  await expect(disabled).toHaveAttribute('aria-disabled', 'true');
  await disabled.hover();
  await expect(page.getByRole('tooltip')).toHaveText('No se puede marcar en riesgo una unidad resciliada');
  await expect(disabled).toBeDisabled();

  const csv = await download(page, 'Exportar CSV');
  expect(csv.suggestedFilename()).toBe(`consolidado_broker_${todayInSantiago()}.csv`);
  expect((await csvLines(csv))[0]).toBe(
    'N° Reserva;Cliente;Proyecto;Depto.;Comisión;Fecha Pago 1;Fecha Pago 2;Pagado;Pagado CLP;Estado;Motivo del Riesgo',
  );
});

// Issue 28 §4: one meaning of "rescinded". For a broker with a rescinded reservation, the dashboard,
// Informe de Brokers and the consolidated view each say what their figures leave out, the report's
// total is the sum of its live rows, and the exports carry each row's 'Estado' and labelled totals.
test("one meaning of rescinded: every figure says what it leaves out, and the exports say each row's state", async ({
  page,
}) => {
  const { broker, rescinded } = await brokerForRisk(page.request);
  await page.goto('/dashboard');
  await expect(page.getByRole('region', { name: 'Total Reservas' })).toContainText('excluye resciliadas');
  await expect(page.getByTestId('top-brokers')).toContainText('excluye resciliadas');

  // The broker's report as the server reads it now: its total must be the sum of its live rows.
  const readReport = async () => {
    const report = (await (
      await page.request.get(`/api/reports/brokers?brokerId=${broker.id}&pageSize=100`)
    ).json()) as {
      rows: { isRescinded: boolean; commissionAmount: string | null }[];
      totals: { commissionAmount: string };
    };
    const live = report.rows.filter((row) => !row.isRescinded);
    const liveCents = live.reduce((sum, row) => sum + Math.round(Number(row.commissionAmount ?? 0) * 100), 0);
    expect(Math.round(Number(report.totals.commissionAmount) * 100)).toBe(liveCents);
    expect(report.rows.some((row) => row.isRescinded)).toBe(true);
    return { liveCents, liveRows: live.length };
  };
  await readReport();

  await page.goto(`/informes/brokers?broker=${broker.id}&porPagina=100`);
  const brokersTable = table(page, 'Informe de Brokers');
  const footer = brokersTable.locator('tfoot');
  await expect(footer).toContainText('Totales (excluye resciliadas)');
  await expect(brokersTable.getByRole('row').filter({ hasText: rescinded.reservationNumber })).toContainText(
    'Resciliada',
  );
  // Journeys beside this one may reserve with this broker: the footer and the export are compared
  // with the report read at the same moment, again until nothing changed in between.
  await expect(async () => {
    const { liveCents } = await readReport();
    const total = new Intl.NumberFormat('es-CL', {
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    }).format(liveCents / 100);
    await expect(footer).toContainText(total, { timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
  let lines: string[] = [];
  await expect(async () => {
    lines = await csvLines(await download(page, 'Exportar CSV'));
    const { liveRows } = await readReport();
    expect(lines.filter((line) => line.split(';')[1] === 'Vigente').length).toBe(liveRows);
  }).toPass({ timeout: 60_000 });
  const rescindedLine = lines.find((line) => line.startsWith(`${rescinded.reservationNumber};`));
  expect(rescindedLine?.split(';')[1]).toBe('Resciliada');
  expect(lines.at(-1)?.startsWith('Totales (excluye resciliadas);')).toBe(true);

  await page.goto(`/informes/consolidado-brokers?broker=${broker.id}`);
  await expect(page.getByText('excluye resciliadas y en riesgo')).toBeVisible();
  const consolidated = await csvLines(await download(page, 'Exportar CSV'));
  expect(consolidated.slice(-4).map((line) => line.split(';')[0])).toEqual([
    'Total Comisiones (excluye resciliadas y en riesgo)',
    'Total Pagado',
    'Total En Riesgo',
    'Total Pendiente',
  ]);
});
