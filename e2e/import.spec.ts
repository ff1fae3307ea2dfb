import { readFileSync, writeFileSync } from 'node:fs';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { uniqueRut, uniqueText } from './fixtures';

// Issue 32: an administrator moves in-flight sales onto Inmoflujo from Excel — a workbook with three
// errors, the errors downloaded and fixed in the workbook, imported again, the reservations seen in
// Flujo Reservas at their stages, then the run undone.

const HEADERS = [
  'N° Reserva',
  'RUT Cliente',
  'Proyecto',
  'Fecha reserva',
  'Departamento',
  'Precio departamento',
  'Crédito hipotecario',
  'Fecha promesa',
  'Etapa alcanzada',
];

async function newClient(page: Page, origin: string, lastName: string): Promise<string> {
  const rut = uniqueRut();
  const response = await page.request.post('/api/clients', {
    headers: { origin },
    data: { rut, firstName: 'Importada', lastName, birthDate: '1984-05-06', phone: null, email: null },
  });
  expect(response.status(), await response.text()).toBe(201);
  return rut;
}

async function workbookFile(rows: unknown[][], path: string) {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Reservas');
  sheet.addRow(HEADERS);
  for (const row of rows) sheet.addRow(row);
  await book.xlsx.writeFile(path);
}

/** Chooses the kind and the file; the mapping table appears, the first column matched. */
async function chooseFile(
  page: Page,
  path: string,
  kind = 'Reservas',
  firstField = 'N° Reserva',
  firstColumn = '0',
) {
  await page.goto('/configuracion/importar');
  await page.getByLabel('Tipo de datos').selectOption({ label: kind });
  const chooser = page.waitForEvent('filechooser');
  await page.getByLabel('Archivo (.xlsx o .csv)').click();
  await (await chooser).setFiles(path);
  await expect(page.getByRole('table', { name: 'Asignación de columnas' })).toBeVisible();
  await expect(page.getByLabel(`Columna para ${firstField}`)).toHaveValue(firstColumn);
}

async function newProject(request: APIRequestContext, origin: string) {
  const agencies = await (await request.get('/api/settings/agencies?pageSize=10')).json();
  const created = await request.post('/api/settings/projects', {
    headers: { origin },
    data: {
      name: uniqueText('Torre Importada'),
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

test.describe('importar', () => {
  test('el administrador importa reservas en curso con errores, los corrige en la planilla, las ve en Flujo Reservas y deshace la importación', async ({
    page,
  }) => {
    test.setTimeout(180_000);
    await page.goto('/configuracion/importar');
    const origin = new URL(page.url()).origin;
    const tag = uniqueText('IMP').replace(' ', '-');
    const names = ['Aravena', 'Bustos', 'Cifuentes'].map((name) => uniqueText(name));
    const ruts = [];
    for (const name of names) ruts.push(await newClient(page, origin, name));
    const apartment = (n: number) => `${tag.slice(-5)}${n}`;

    // Three rows with an error each: a RUT of nobody, a day that does not exist, a stage without its date.
    const rows = [
      [
        `${tag}-1`,
        uniqueRut(),
        'Edificio Los Aromos',
        '05/01/2026',
        apartment(1),
        '3.100,00',
        '2.900,00',
        null,
        'Reserva',
      ],
      [
        `${tag}-2`,
        ruts[1],
        'Edificio Los Aromos',
        '31/02/2026',
        apartment(2),
        '3.200,00',
        '3.000,00',
        '10/02/2026',
        'Promesa',
      ],
      [
        `${tag}-3`,
        ruts[2],
        'Edificio Los Aromos',
        '07/01/2026',
        apartment(3),
        '3.300,00',
        '3.100,00',
        null,
        'Escrituración',
      ],
    ];
    const first = test.info().outputPath('reservas.xlsx');
    await workbookFile(rows, first);
    await chooseFile(page, first);
    await page.getByRole('button', { name: 'Revisar archivo' }).click();
    await expect(page.getByTestId('import-summary')).toHaveText(
      '0 nuevos, 0 actualizados, 0 sin cambios, 3 con errores',
    );
    const errors = page.getByRole('table', { name: 'Errores del archivo' });
    await expect(errors.getByRole('row')).toHaveCount(4);
    await expect(errors).toContainText('No hay un cliente con este RUT');
    await expect(errors).toContainText('No es una fecha válida (use dd/mm/aaaa)');
    await expect(errors).toContainText('Con la etapa Escrituración, indique la fecha de promesa');
    await expect(page.getByRole('button', { name: 'Importar', exact: true })).toBeDisabled();

    // The workbook again with an 'Errores' column: fixed in "Excel" and uploaded again.
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Descargar planilla con errores' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('reservas_errores.xlsx');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(readFileSync(await file.path()) as never);
    const sheet = book.worksheets[0]!;
    // Each row with its row in the file uploaded first, the reasons last (issue 55).
    expect(sheet.getRow(1).getCell(1).value).toBe('Fila original');
    expect(sheet.getRow(1).getCell(11).value).toBe('Errores');
    expect([2, 3, 4].map((row) => sheet.getRow(row).getCell(1).value)).toEqual([2, 3, 4]);
    expect(String(sheet.getRow(2).getCell(11).value)).toContain('RUT Cliente');
    expect(String(sheet.getRow(3).getCell(11).value)).toContain('Fecha reserva');
    expect(String(sheet.getRow(4).getCell(11).value)).toContain('Fecha promesa');
    sheet.getRow(2).getCell(3).value = ruts[0];
    sheet.getRow(3).getCell(5).value = '06/01/2026';
    sheet.getRow(4).getCell(9).value = '20/02/2026';
    const fixed = test.info().outputPath('reservas_corregidas.xlsx');
    await book.xlsx.writeFile(fixed);

    // Its first column is 'Fila original' (not mapped).
    await chooseFile(page, fixed, 'Reservas', 'N° Reserva', '1');
    await page.getByRole('button', { name: 'Revisar archivo' }).click();
    await expect(page.getByTestId('import-summary')).toHaveText(
      '3 nuevos, 0 actualizados, 0 sin cambios, 0 con errores',
    );
    await page.getByRole('button', { name: 'Importar', exact: true }).click();
    // The apply runs in the background (one chunk: the reservations, their flows by the engine);
    // on a machine busy with the other journeys it has taken over 20 s.
    await expect(page.getByRole('status').filter({ hasText: 'Importación terminada' })).toContainText(
      '3 nuevos, 0 actualizados, 0 sin cambios, 0 con errores',
      { timeout: 60_000 },
    );
    const run = page
      .getByRole('table', { name: 'Importaciones realizadas' })
      .getByRole('row')
      .filter({ hasText: 'reservas_corregidas.xlsx' });
    await expect(run).toContainText('Aplicada');

    // Each reservation in Flujo Reservas at its stage.
    const stages = ['Reserva', 'Promesa', 'Escrituración'];
    for (const [index, name] of names.entries()) {
      await page.goto(`/flujo-reservas?q=${encodeURIComponent(name)}`);
      const row = page.getByRole('row').filter({ hasText: name });
      await expect(row).toHaveCount(1);
      await expect(row).toContainText(stages[index]!);
    }

    // Undone: the reservations are gone.
    await page.goto('/configuracion/importar');
    await run.getByRole('button', { name: 'Deshacer importación' }).click();
    await page
      .getByRole('dialog', { name: 'Deshacer importación' })
      .getByRole('button', { name: 'Deshacer importación' })
      .click();
    await expect(run).toContainText('Deshecha');
    await page.goto(`/flujo-reservas?q=${encodeURIComponent(names[0]!)}`);
    await expect(page.getByRole('row').filter({ hasText: names[0]! })).toHaveCount(0);
  });

  test('el administrador importa unidades y precios: revisa el archivo, importa las filas válidas y las ve en Disponibilidad', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.goto('/configuracion/importar');
    const project = await newProject(page.request, new URL(page.url()).origin);
    // Issue 32 with issue 31: a project's units with their list prices, one row with a negative area.
    const path = test.info().outputPath('unidades.csv');
    writeFileSync(
      path,
      [
        'Proyecto;Tipo de unidad;Número;Piso;Tipología;m² útiles;Precio lista UF',
        `${project.name};Departamento;101;1;2D2B;54,30;3.250,00`,
        `${project.name};Departamento;102;1;1D1B;-5;2.900,00`,
        `${project.name};Estacionamiento;E-1;-1;;;180`,
      ].join('\n'),
    );
    await chooseFile(page, path, 'Unidades y precios', 'Proyecto');
    await page.getByRole('button', { name: 'Revisar archivo' }).click();
    await expect(page.getByTestId('import-summary')).toHaveText(
      '2 nuevos, 0 actualizados, 0 sin cambios, 1 con errores',
    );
    const errors = page.getByRole('table', { name: 'Errores del archivo' });
    await expect(errors).toContainText(
      'Ingrese los m² útiles válidos (mayor o igual a 0, con hasta 2 decimales)',
    );
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({
        path: test.info().outputPath(`unidades-revision-${width}.png`),
        fullPage: true,
      });
    }
    // On a phone each error is a card, its reason read whole within the screen's width.
    const phoneErrors = page.getByRole('list', { name: 'Errores del archivo' });
    const reason = phoneErrors.getByText('Ingrese los m² útiles válidos', { exact: false });
    await expect(phoneErrors.getByRole('listitem')).toHaveCount(1);
    await expect(phoneErrors.getByRole('listitem')).toContainText('Fila 3 · ');
    const box = (await reason.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.getByLabel('Importar solo filas válidas').check();
    await page.getByRole('button', { name: 'Importar', exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Importación terminada' })).toContainText(
      '2 nuevos, 0 actualizados, 0 sin cambios, 1 con errores',
      { timeout: 60_000 },
    );
    // On a phone the runs are cards too: the file, its state and its result within the screen.
    await page.setViewportSize({ width: 390, height: 900 });
    const runCard = page
      .getByRole('list', { name: 'Importaciones realizadas' })
      .getByRole('listitem')
      .filter({ hasText: 'unidades.csv' });
    await expect(runCard).toContainText('Aplicada');
    await expect(runCard).toContainText('2 nuevos, 0 actualizados, 0 sin cambios, 1 con errores');
    const card = (await runCard.boundingBox())!;
    expect(card.x + card.width).toBeLessThanOrEqual(390);
    await page.screenshot({ path: test.info().outputPath('importaciones-390.png'), fullPage: true });
    await page.setViewportSize({ width: 1440, height: 900 });
    // The units and their prices, in Disponibilidad.
    const grid = await (await page.request.get(`/api/stock/projects/${project.id}/units`)).json();
    expect(
      grid.units.map((unit: { number: string; price: string | null; status: string }) => [
        unit.number,
        unit.price,
        unit.status,
      ]),
    ).toEqual(
      expect.arrayContaining([
        ['101', '3250.00', 'Disponible'],
        ['E-1', '180.00', 'Disponible'],
      ]),
    );
    await page.goto(`/disponibilidad?proyecto=${project.id}`);
    await expect(page.getByText('101', { exact: true }).first()).toBeVisible();
  });

  test('el administrador importa clientes de una planilla con un título: ve en qué fila está el encabezado, elige otra y vuelve, y ve las filas omitidas', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    // Issue 55: a client list exported by another system, its table below a title block and a totals row.
    const people = [
      [uniqueRut(), 'Ana María', uniqueText('Núñez'), '01/02/1980'],
      [uniqueRut(), 'José', uniqueText('Ñancupil'), '31/12/1975'],
    ];
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Clientes');
    sheet.addRow(['Listado de clientes']);
    sheet.mergeCells('A1:D1');
    sheet.addRow(['Generado el 01/12/2026 por Sistema Comercial']);
    sheet.addRow([]);
    sheet.addRow(['RUT', 'Nombres', 'Apellidos', 'Fecha de nacimiento']);
    for (const person of people) sheet.addRow(person);
    sheet.addRow([]);
    sheet.addRow([`Total: ${people.length} clientes`]);
    const path = test.info().outputPath('clientes-con-titulo.xlsx');
    await book.xlsx.writeFile(path);

    await chooseFile(page, path, 'Clientes', 'RUT');
    await expect(page.getByTestId('import-header-row')).toHaveText('Encabezado en la fila 4');
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: test.info().outputPath(`encabezado-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1440, height: 900 });
    // Another row chosen as the header: the columns are that row's.
    const choice = page.getByLabel('Fila de encabezado');
    await choice.selectOption({ label: 'Fila 2: Generado el 01/12/2026 por Sistema Comercial' });
    await expect(page.getByTestId('import-header-row')).toHaveText('Encabezado en la fila 2 (elegida)');
    await expect(page.getByLabel('Columna para RUT')).toHaveValue('');
    await choice.selectOption({ label: 'Fila 4: RUT · Nombres · Apellidos · Fecha de nacimiento' });
    await expect(page.getByTestId('import-header-row')).toHaveText('Encabezado en la fila 4 (elegida)');
    await expect(page.getByLabel('Columna para RUT')).toHaveValue('0');

    await page.getByRole('button', { name: 'Revisar archivo' }).click();
    await expect(page.getByTestId('import-summary')).toHaveText(
      '2 nuevos, 0 actualizados, 0 sin cambios, 0 con errores',
    );
    const skipped = page.getByTestId('import-skipped');
    await expect(skipped).toContainText('Encabezado en la fila 4. Filas omitidas (no son datos): 4.');
    await expect(skipped).toContainText('Fila 1: título sobre el encabezado');
    await expect(skipped).toContainText('Fila 2: título sobre el encabezado');
    await expect(skipped).toContainText('Fila 7: fila en blanco');
    await expect(skipped).toContainText('Fila 8: fila de totales');
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: test.info().outputPath(`omitidas-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.getByRole('button', { name: 'Importar', exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Importación terminada' })).toContainText(
      '2 nuevos, 0 actualizados, 0 sin cambios, 0 con errores',
      { timeout: 60_000 },
    );
  });

  test('el administrador importa clientes con título y apellidos separados: dice dónde está el encabezado, une las columnas, descarga los errores, los corrige, importa de nuevo y deshace', async ({
    page,
  }) => {
    test.setTimeout(180_000);
    // Issue 55: the table below a title block, the surnames in two columns no rule knows, a bad RUT,
    // a RUT repeated with other values and an identical row.
    const [ana, jose, eva] = [uniqueRut(), uniqueRut(), uniqueRut()];
    const surname = uniqueText('Núñez');
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Clientes');
    sheet.addRow(['Clientes exportados del sistema anterior']);
    sheet.mergeCells('A1:E1');
    sheet.addRow([]);
    sheet.addRow(['RUT', 'Nombres', 'Ap. Paterno', 'Ap. Materno', 'Fecha de nacimiento']);
    sheet.addRow([ana, 'Ana María', surname, 'Pérez', '01/02/1980']);
    sheet.addRow(['12.345.678-9', 'José', surname, 'Soto', '31/12/1975']);
    sheet.addRow([ana, 'Ana María', surname, 'Pérez', '01/02/1980']);
    sheet.addRow([ana, 'Ana', surname, 'Lagos', '01/02/1980']);
    sheet.addRow([eva, 'Eva', surname, 'Mena', '05/06/1990']);
    sheet.addRow([`Total: 5 clientes`]);
    const path = test.info().outputPath('clientes-apellidos.xlsx');
    await book.xlsx.writeFile(path);

    await chooseFile(page, path, 'Clientes', 'RUT');
    // Where the header is, said on screen; chosen there as well.
    await expect(page.getByTestId('import-header-row')).toHaveText('Encabezado en la fila 3');
    await page
      .getByLabel('Fila de encabezado')
      .selectOption({ label: 'Fila 3: RUT · Nombres · Ap. Paterno · Ap. Materno · Fecha de nacimiento' });
    await expect(page.getByTestId('import-header-row')).toHaveText('Encabezado en la fila 3 (elegida)');
    // The two surname columns joined into Apellidos.
    await page.getByLabel('Columna para Apellidos').selectOption({ label: 'Ap. Paterno' });
    await page.getByRole('button', { name: 'Unir otra columna a Apellidos' }).click();
    await page.getByLabel('Columna 2 para Apellidos').selectOption({ label: 'Ap. Materno' });
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: test.info().outputPath(`unir-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1440, height: 900 });

    await page.getByRole('button', { name: 'Revisar archivo' }).click();
    await expect(page.getByTestId('import-summary')).toHaveText(
      '2 nuevos, 0 actualizados, 0 sin cambios, 2 con errores',
    );
    const errors = page.getByRole('table', { name: 'Errores del archivo' });
    await expect(errors).toContainText('El RUT no es válido');
    await expect(errors).toContainText('RUT repetido en 2 filas (la primera es la 4)');
    await expect(page.getByTestId('import-skipped')).toContainText(
      'Fila 6: idéntica a la fila 4, se importa una vez',
    );

    // The errors workbook: only the two rows, with their original row; fixed and kept for later.
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Descargar planilla con errores' }).click();
    const errorsBook = new ExcelJS.Workbook();
    await errorsBook.xlsx.load(readFileSync(await (await download).path()) as never);
    const errorsSheet = errorsBook.worksheets[0]!;
    expect(errorsSheet.actualRowCount).toBe(3);
    expect([2, 3].map((row) => errorsSheet.getRow(row).getCell(1).value)).toEqual([5, 7]);
    errorsSheet.getRow(2).getCell(2).value = jose;
    // The repeated RUT was another person: given their own RUT.
    const other = uniqueRut();
    errorsSheet.getRow(3).getCell(2).value = other;
    const fixed = test.info().outputPath('clientes-apellidos_corregidos.xlsx');
    await errorsBook.xlsx.writeFile(fixed);

    // The valid rows now.
    await page.getByLabel('Importar solo filas válidas').check();
    await page.getByRole('button', { name: 'Importar', exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Importación terminada' })).toContainText(
      '2 nuevos, 0 actualizados, 0 sin cambios, 2 con errores',
      { timeout: 60_000 },
    );

    // The fixed rows again: the header in row 1, the surnames joined as remembered.
    // Its first column is 'Fila original' (not mapped).
    await chooseFile(page, fixed, 'Clientes', 'RUT', '1');
    await expect(page.getByLabel('Columna para Apellidos')).toHaveValue('3');
    await expect(page.getByLabel('Columna 2 para Apellidos')).toHaveValue('4');
    await page.getByRole('button', { name: 'Revisar archivo' }).click();
    await expect(page.getByTestId('import-summary')).toHaveText(
      '2 nuevos, 0 actualizados, 0 sin cambios, 0 con errores',
    );
    await page.getByRole('button', { name: 'Importar', exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Importación terminada' })).toContainText(
      '2 nuevos, 0 actualizados, 0 sin cambios, 0 con errores',
      { timeout: 60_000 },
    );
    const client = await page.request.get(`/api/clients?search=${encodeURIComponent(jose)}`);
    expect((await client.json()).rows[0].lastName).toBe(`${surname} Soto`);

    // The runs list keeps the state whole at 1440 px; the second run undone, said so, its box gone.
    const runs = page.getByRole('table', { name: 'Importaciones realizadas' });
    const run = runs.getByRole('row').filter({ hasText: 'clientes-apellidos_corregidos.xlsx' });
    const state = run.getByText('Aplicada', { exact: true });
    await expect(state).toBeVisible();
    expect(await state.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    await page.screenshot({ path: test.info().outputPath('importaciones-1440.png'), fullPage: true });
    await run.getByRole('button', { name: 'Deshacer importación' }).click();
    await page
      .getByRole('dialog', { name: 'Deshacer importación' })
      .getByRole('button', { name: 'Deshacer importación' })
      .click();
    await expect(page.getByRole('status').filter({ hasText: 'Importación deshecha' })).toContainText(
      'clientes-apellidos_corregidos.xlsx',
    );
    await expect(page.getByRole('status').filter({ hasText: 'Importación terminada' })).toHaveCount(0);
    await expect(run).toContainText('Deshecha');
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: test.info().outputPath(`deshecha-${width}.png`), fullPage: true });
    }
    const gone = await page.request.get(`/api/clients?search=${encodeURIComponent(jose)}`);
    expect((await gone.json()).rows).toHaveLength(0);
  });
});
