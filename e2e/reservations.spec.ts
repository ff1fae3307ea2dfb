import { expect, type Page, test } from '@playwright/test';
import { pickSearchedOption, uniqueRut, uniqueText } from './fixtures';

/** Creates a client through the API (the journeys here are about reservations, not the client form). */
async function apiClient(page: Page, firstName: string, lastName: string) {
  const response = await page.request.post('/api/clients', {
    headers: { origin: new URL(page.url() || 'http://127.0.0.1').origin },
    data: { rut: uniqueRut(), firstName, lastName, birthDate: '1988-05-20', phone: null, email: null },
  });
  expect(response.status()).toBe(201);
  return (await response.json()).client as { id: string };
}

async function apiBroker(page: Page, name: string) {
  const response = await page.request.post('/api/brokers', {
    headers: { origin: new URL(page.url()).origin },
    data: {
      rut: uniqueRut(),
      name,
      businessName: `${name} Corredores SpA`,
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
  expect(response.status(), await response.text()).toBe(201);
}

/** Goes to /reservas/nueva, finds the client by name and chooses it. */
async function startReservation(page: Page, clientName: string) {
  await page.goto('/reservas/nueva');
  await page.getByLabel('Buscar cliente').fill(clientName);
  await page.getByRole('listitem').filter({ hasText: clientName }).click();
  await expect(page.getByTestId('reservation-client')).toHaveText(clientName);
}

/** Fills the form for a unit nobody holds (a unit is booked to one live reservation at a time). */
async function fillReservation(page: Page, number: string) {
  const unit = uniqueText('').trim().slice(-6);
  await page.getByLabel('N° de reserva').fill(number);
  await page.getByRole('combobox', { name: 'Proyecto' }).click();
  await page.getByRole('option', { name: 'Edificio Los Aromos · Etapa 1' }).click();
  await page.getByLabel('N° departamento').fill(`D${unit}`);
  await page.getByLabel('N° estacionamiento').fill(`E-${unit}`);
  await page.getByLabel('Precio departamento').fill('3000');
  await page.getByLabel('Precio estacionamiento').fill('150');
  await page.getByLabel('Precio bodega').fill('50');
  await page.getByLabel('Descuento columna').fill('5');
  await page.getByLabel('Descuento adicional').fill('2');
  await page.getByLabel('Otro descuento').fill('1');
  await page.getByLabel('Crédito hipotecario').fill('2900');
  await page.getByLabel('Bono Pie').fill('100');
}

async function findInList(page: Page, number: string) {
  await page.goto(`/reservas?q=${encodeURIComponent(number)}`);
  return page.getByRole('row').filter({ hasText: number });
}

test.describe('reservas', () => {
  test.beforeEach(async ({ page }) => {
    await page.goto('/reservas');
  });

  test('crea una reserva sin broker: el precio mínimo coincide con el cálculo a mano', async ({ page }) => {
    const number = uniqueText('R').replace(' ', '-');
    await apiClient(page, 'Rosa', 'Zúñiga Pino');
    await startReservation(page, 'Rosa Zúñiga Pino');
    // The default seller is preselected.
    await expect(page.getByRole('combobox', { name: 'Vendedor' })).toHaveValue('Alicia Administradora');
    await fillReservation(page, number);
    // 3.000 × 0,95 × 0,98 × 0,99 = 2.765,07; + 150 + 50 = 2.965,07
    await expect(page.getByTestId('minimum-price')).toHaveText('UF 2.965,07');
    await expect(page.getByTestId('total-price')).toHaveText('UF 3.200,00');
    await expect(page.getByTestId('total-payment')).toHaveText('UF 3.000,00');
    await expect(page.getByTestId('recovery-payment')).toHaveText('UF 2.900,00');
    await page.getByRole('button', { name: 'Crear Reserva' }).click();

    await expect(page).toHaveURL(/\/reservas$/);
    const row = await findInList(page, number);
    await expect(row).toContainText('Rosa Zúñiga Pino');
    await expect(row).toContainText('Edificio Los Aromos');
    await expect(row).toContainText('UF 2.965,07');
    await expect(row).toContainText('UF 3.200,00');
  });

  test('crea una reserva con broker y su comisión en el mismo paso', async ({ page }) => {
    const number = uniqueText('RB').replace(' ', '-');
    const brokerName = uniqueText('Broker Sur');
    await apiBroker(page, brokerName);
    await apiClient(page, 'Tomás', 'Valdés Araya');
    await startReservation(page, 'Tomás Valdés Araya');
    await fillReservation(page, number);
    await page.getByLabel('Venta con broker').check();
    await pickSearchedOption(page, 'Broker', brokerName, brokerName);
    await page.getByRole('button', { name: 'Crear Reserva' }).click();

    const popup = page.getByRole('dialog', { name: /Comisión del Broker/ });
    await expect(popup).toBeVisible();
    await popup.getByLabel('Monto de la comisión').fill('59,5');
    await popup.getByText('2 pagos').click();
    await expect(popup.getByRole('table', { name: 'Cálculo de la comisión' })).toContainText('UF 50,00');
    await expect(popup.getByRole('table', { name: 'Cálculo de la comisión' })).toContainText('UF 29,75');
    await popup.getByRole('button', { name: 'Confirmar y crear reserva' }).click();

    await expect(page).toHaveURL(/\/reservas$/);
    const row = await findInList(page, number);
    await row.getByRole('link', { name: number, exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Comisión del broker' })).toBeVisible();
    await expect(page.getByText('UF 59,50')).toBeVisible();
    await expect(page.getByText('2 pagos (50,00 % / 50,00 %)')).toBeVisible();
  });

  test('el cliente se elige con el teclado: flechas para recorrer, Enter para elegir', async ({ page }) => {
    await page.goto('/clientes');
    const surname = uniqueText('Teclado').replace(' ', '');
    await apiClient(page, 'Ana', `${surname} Uno`);
    await apiClient(page, 'Bruno', `${surname} Dos`);
    await page.goto('/reservas/nueva');
    const box = page.getByLabel('Buscar cliente');
    await box.fill(surname);
    const results = page.getByRole('list', { name: 'Clientes encontrados' }).getByRole('listitem');
    await expect(results).toHaveCount(2);
    await box.press('ArrowDown');
    await expect(results.first()).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(results.nth(1)).toBeFocused();
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await expect(box).toBeFocused();
    await box.press('ArrowDown');
    await page.keyboard.press('End');
    const chosen = (await results.nth(1).locator('p').first().textContent())!;
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('reservation-client')).toHaveText(chosen);
  });

  test('cancelar la ventana de comisión no guarda nada', async ({ page }) => {
    const number = uniqueText('RC').replace(' ', '-');
    const brokerName = uniqueText('Broker Norte');
    await apiBroker(page, brokerName);
    await apiClient(page, 'Inés', 'Carrasco Leiva');
    await startReservation(page, 'Inés Carrasco Leiva');
    await fillReservation(page, number);
    await page.getByLabel('Venta con broker').check();
    await pickSearchedOption(page, 'Broker', brokerName, brokerName);
    await page.getByRole('button', { name: 'Crear Reserva' }).click();
    const popup = page.getByRole('dialog', { name: /Comisión del Broker/ });
    await popup.getByRole('button', { name: 'Cancelar' }).click();
    await expect(popup).toBeHidden();
    // The form keeps what the user typed.
    await expect(page.getByLabel('N° de reserva')).toHaveValue(number);

    await page.goto(`/reservas?q=${encodeURIComponent(number)}`);
    await expect(page.getByText('No hay reservas con ese número')).toBeVisible();
  });

  test('editar los descuentos actualiza las cifras al instante; un administrador elimina la reserva', async ({
    page,
  }) => {
    const number = uniqueText('RE').replace(' ', '-');
    await apiClient(page, 'Pedro', 'Ñancupil Rojas');
    await startReservation(page, 'Pedro Ñancupil Rojas');
    await fillReservation(page, number);
    await page.getByRole('button', { name: 'Crear Reserva' }).click();
    await expect(page).toHaveURL(/\/reservas$/);

    const row = await findInList(page, number);
    await row.getByRole('link', { name: `Editar reserva ${number}` }).click();
    await expect(page.getByRole('heading', { name: 'Editar Reserva' })).toBeVisible();
    await expect(page.getByLabel('Descuento columna')).toHaveValue('5');
    await page.getByLabel('Descuento columna').fill('10');
    // 3.000 × 0,90 × 0,98 × 0,99 = 2.619,54; + 200
    await expect(page.getByTestId('minimum-price')).toHaveText('UF 2.819,54');
    await page.getByLabel('Descuento adicional').fill('0');
    await page.getByLabel('Otro descuento').fill('0');
    await expect(page.getByTestId('minimum-price')).toHaveText('UF 2.900,00');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await expect(page).toHaveURL(/\/reservas$/);

    const updated = await findInList(page, number);
    await expect(updated).toContainText('UF 2.900,00');
    await updated.getByRole('button', { name: `Eliminar reserva ${number}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Eliminar reserva' });
    await dialog.getByRole('button', { name: 'Eliminar' }).click();
    await expect(page.getByText('No hay reservas con ese número')).toBeVisible();
  });

  test('el formulario muestra los mensajes en español y conserva lo escrito', async ({ page }) => {
    await apiClient(page, 'Olga', 'Sepúlveda Tapia');
    await startReservation(page, 'Olga Sepúlveda Tapia');
    await page.getByLabel('N° de reserva').fill('   ');
    await page.getByLabel('N° departamento').fill('802');
    await page.getByRole('button', { name: 'Crear Reserva' }).click();
    await expect(page.getByText('El número de reserva es obligatorio')).toBeVisible();
    await expect(page.getByText('Seleccione un proyecto')).toBeVisible();
    await expect(page.getByLabel('N° departamento')).toHaveValue('802');
  });

  test('«Cambiar Cliente» conserva lo escrito, y salir con cambios sin guardar pregunta antes', async ({
    page,
  }) => {
    await apiClient(page, 'Nora', 'Borrador Díaz');
    await apiClient(page, 'Otto', 'Segundo Díaz');
    await startReservation(page, 'Nora Borrador Díaz');
    await page.getByLabel('N° de reserva').fill('RB-BORRADOR');
    await page.getByLabel('N° departamento').fill('7777');
    await page.getByRole('button', { name: 'Cambiar Cliente' }).click();
    await page.getByLabel('Buscar cliente').fill('Otto Segundo Díaz');
    await page.getByRole('listitem').filter({ hasText: 'Otto Segundo Díaz' }).click();
    await expect(page.getByTestId('reservation-client')).toHaveText('Otto Segundo Díaz');
    await expect(page.getByLabel('N° de reserva')).toHaveValue('RB-BORRADOR');
    await expect(page.getByLabel('N° departamento')).toHaveValue('7777');

    const menu = page.getByRole('navigation', { name: 'Menú principal' });
    await menu.getByRole('link', { name: 'Clientes' }).click();
    const ask = page.getByRole('dialog', { name: 'Hay cambios sin guardar' });
    await ask.getByRole('button', { name: 'Seguir editando' }).click();
    await expect(page).toHaveURL(/\/reservas\/nueva/);
    await expect(page.getByLabel('N° departamento')).toHaveValue('7777');
    await menu.getByRole('link', { name: 'Clientes' }).click();
    await ask.getByRole('button', { name: 'Salir sin guardar' }).click();
    await expect(page).toHaveURL(/\/clientes$/);
  });

  test('en un teléfono la lista de reservas son tarjetas, con sus acciones a la vista', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/reservas');
    const cards = page.getByRole('list', { name: 'Reservas' }).getByRole('listitem');
    await expect(cards.first()).toBeVisible();
    await expect(cards.first().getByRole('link', { name: /^Editar reserva / })).toBeInViewport();
    // The order is chosen in a select (no headers to click), and it is the list's: newest first.
    await expect(page.getByLabel('Ordenar por')).toHaveValue('reservationDate:desc');
    await page.getByLabel('Ordenar por').selectOption({ label: 'N° Reserva ↑' });
    await expect(page).toHaveURL(/orden=reservationNumber&dir=asc/);
    // The totals of the list in a last card.
    await expect(page.getByRole('group', { name: 'Totales' })).toContainText('Precio Lista');
    // Nothing hides off-screen to the right.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });

  test('un monto pegado se lee sin adivinar y un descuento sobre 100 % se explica', async ({ page }) => {
    await apiClient(page, 'Rosa', 'Pegado Montes');
    await startReservation(page, 'Rosa Pegado Montes');
    const paste = (label: string, text: string) =>
      page.getByLabel(label).evaluate((input, pasted) => {
        (input as HTMLInputElement).focus();
        const data = new DataTransfer();
        data.setData('text', pasted);
        input.dispatchEvent(
          new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
        );
      }, text);
    await paste('Precio departamento', '1.5');
    await expect(page.getByLabel('Precio departamento')).toHaveValue('1,5');
    await paste('Precio estacionamiento', '5000.5');
    await expect(page.getByLabel('Precio estacionamiento')).toHaveValue('5.000,5');
    const storageBefore = await page.getByLabel('Precio bodega').inputValue();
    await paste('Precio bodega', '-500');
    await expect(page.getByText('El monto no puede ser negativo')).toBeVisible();
    // Refused, not turned into 500: the field keeps what it had.
    await expect(page.getByLabel('Precio bodega')).toHaveValue(storageBefore);
    await page.getByLabel('Descuento columna').fill('101');
    await expect(page.getByText('El descuento no puede superar 100 %')).toBeVisible();
    await expect(page.getByLabel('Descuento columna')).toHaveValue('101');
  });
});

/** Creates a reservation through the API: the unit's price, paid by credit; nothing else. */
async function apiReservation(
  page: Page,
  values: { number: string; clientId: string; projectId: string; date: string; price: string },
) {
  const response = await page.request.post('/api/reservations', {
    headers: { origin: new URL(page.url()).origin },
    data: {
      reservationNumber: values.number,
      clientId: values.clientId,
      projectId: values.projectId,
      sellerId: null,
      reservationDate: values.date,
      apartmentNumber: `L-${values.number}`,
      parkingNumber: null,
      storageNumber: null,
      apartmentPrice: values.price,
      parkingPrice: '0',
      storagePrice: '0',
      columnDiscount: '0',
      additionalDiscount: '0',
      otherDiscount: '0',
      reservationPayment: '0',
      promisePayment: '0',
      downPayment: '0',
      creditPayment: values.price,
      subsidyPayment: '0',
      isWithBroker: false,
      brokerId: null,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
}

test.describe('lista de reservas', () => {
  test('filtra por proyecto y fechas, ordena por cliente, suma los montos y la dirección lo guarda', async ({
    page,
  }) => {
    await page.goto('/reservas');
    const word = uniqueText('').trim();
    const options = (await (await page.request.get('/api/reservations/form-options')).json()) as {
      projects: { id: string; name: string; stage: string }[];
    };
    const project = options.projects.find((candidate) => candidate.name === 'Parque Vicuña')!;
    const zoe = await apiClient(page, 'Zoe', `Lista ${word}`);
    const ana = await apiClient(page, 'Ana', `Lista ${word}`);
    // A month no other journey books: these three are the only ones of the project in it.
    const day = `20${30 + (Date.now() % 60)}-01`;
    await apiReservation(page, {
      number: `L1-${word}`,
      clientId: zoe.id,
      projectId: project.id,
      date: `${day}-05`,
      price: '1000',
    });
    await apiReservation(page, {
      number: `L2-${word}`,
      clientId: ana.id,
      projectId: project.id,
      date: `${day}-20`,
      price: '2000.5',
    });
    await apiReservation(page, {
      number: `L3-${word}`,
      clientId: zoe.id,
      projectId: project.id,
      date: `${day}-31`,
      price: '3000',
    });
    // Outside the range, same project.
    await apiReservation(page, {
      number: `L4-${word}`,
      clientId: ana.id,
      projectId: project.id,
      date: `${day.slice(0, 4)}-02-01`,
      price: '9000',
    });

    await page.getByRole('combobox', { name: 'Proyecto' }).click();
    await page.getByRole('option', { name: 'Parque Vicuña · Etapa 2' }).click();
    const [year] = day.split('-');
    await page.getByLabel('Desde').fill(`01/01/${year}`);
    await page.keyboard.press('Escape');
    await page.getByLabel('Hasta').fill(`31/01/${year}`);
    await page.keyboard.press('Escape');
    await expect(page).toHaveURL(
      new RegExp(`proyecto=${project.id}.*desde=${year}-01-01.*hasta=${year}-01-31`),
    );

    const table = page.getByRole('table', { name: 'Reservas' });
    const rows = table.locator('tbody tr');
    await expect(rows).toHaveText([
      new RegExp(`L3-${word}`),
      new RegExp(`L2-${word}`),
      new RegExp(`L1-${word}`),
    ]);
    // The totals of the filtered reservations: 1.000 + 2.000,50 + 3.000.
    const totals = table.locator('tfoot tr');
    await expect(totals).toContainText('Totales');
    await expect(totals).toContainText('UF 6.000,50');

    // By client: Ana first; each client's newest reservation first.
    await page
      .getByRole('columnheader', { name: /^Cliente/ })
      .getByRole('button')
      .click();
    await expect(page).toHaveURL(/orden=clientName&dir=asc/);
    await expect(rows).toHaveText([
      new RegExp(`L2-${word}`),
      new RegExp(`L3-${word}`),
      new RegExp(`L1-${word}`),
    ]);

    // The page size is kept in the address too.
    await page.getByLabel('Filas por página').selectOption('10');
    await expect(page).toHaveURL(/porPagina=10/);

    await page.reload();
    await expect(page.getByRole('combobox', { name: 'Proyecto' })).toHaveValue('Parque Vicuña · Etapa 2');
    await expect(page.getByLabel('Desde')).toHaveValue(`01/01/${year}`);
    await expect(page.getByLabel('Hasta')).toHaveValue(`31/01/${year}`);
    await expect(page.getByLabel('Filas por página')).toHaveValue('10');
    await expect(rows).toHaveText([
      new RegExp(`L2-${word}`),
      new RegExp(`L3-${word}`),
      new RegExp(`L1-${word}`),
    ]);
    await expect(totals).toContainText('UF 6.000,50');

    // Only the live ones: none of these is rescinded; only the rescinded ones: none of these.
    await page.getByRole('combobox', { name: 'Estado' }).click();
    await page.getByRole('option', { name: 'Resciliadas', exact: true }).click();
    await expect(page.getByText('Ninguna reserva cumple los filtros')).toBeVisible();
    await page.getByRole('button', { name: 'Limpiar filtros' }).click();
    await expect(page).not.toHaveURL(/proyecto=|desde=|hasta=|resciliadas=/);
    await expect(page).toHaveURL(/orden=clientName/);
  });
});

test('desde la búsqueda de cliente se crea uno nuevo y se vuelve a la reserva con él elegido', async ({
  page,
}) => {
  await page.goto('/reservas/nueva');
  await page.getByRole('link', { name: 'Nuevo Cliente' }).click();
  await expect(page).toHaveURL(/\/clientes\/nuevo\?volver=/);
  const lastName = uniqueText('Vergara');
  await page.getByLabel('RUT').fill(uniqueRut());
  await page.getByLabel('Nombres').fill('Camila');
  await page.getByLabel('Apellidos').fill(lastName);
  await page.getByLabel('Fecha de Nacimiento').fill('14/02/1991');
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Guardar' }).click();

  await expect(page).toHaveURL(/\/reservas\/nueva\?clienteId=/);
  await expect(page.getByTestId('reservation-client')).toHaveText(`Camila ${lastName}`);
  await expect(page.getByLabel('N° de reserva')).toBeVisible();
});
