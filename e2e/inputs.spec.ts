import { type Browser, expect, type Page, test } from '@playwright/test';
import sharp from 'sharp';
import { ACCOUNTS, apiReservation, newStaffUser, signIn, uniqueRut, uniqueText } from './fixtures';

// Issue 28 §5, 'Inputs and actions': what is typed is kept and judged where it is typed, and what a
// user could not undo is asked first.

const NOT_AN_IMAGE = 'Por favor seleccione un archivo de imagen válido';

const statusOf = (page: Page, task: string) => page.getByRole('combobox', { name: `Estado de ${task}` });

async function pickStatus(page: Page, task: string, status: string) {
  await statusOf(page, task).click();
  await page.getByRole('option', { name: status, exact: true }).click();
}

/** A page of its own browser context, signed out. */
async function signedOutPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({
    baseURL: test.info().project.use.baseURL,
    locale: 'es-CL',
    timezoneId: 'America/Santiago',
    storageState: { cookies: [], origins: [] },
  });
  return context.newPage();
}

/** A task's row id and status by name, read from the API. */
async function taskOf(page: Page, url: string, name: string) {
  const flow = (await (await page.request.get(url)).json()).flow;
  return flow.stages
    .flatMap((stage: { tasks: { id: string; name: string; status: string }[] }) => stage.tasks)
    .find((task: { name: string }) => task.name === name) as { id: string; status: string };
}

/** A first payment flow of a new broker sale, created and still waiting for 'Proceder con Pago'. */
async function pendingPaymentFlow(page: Page, origin: string) {
  const reservation = await apiReservation(page.request, origin, {
    firstName: 'Inés',
    lastName: uniqueText('Valdivia'),
    prefix: 'I',
    commission: { commissionAmount: '150', numberOfPayments: 1, firstPaymentPercentage: 100 },
  });
  const opened = await page.request.post(`/api/payments/${reservation.reservationId}/first-flow`, {
    headers: { origin },
  });
  expect(opened.ok(), await opened.text()).toBe(true);
  return { reservation, flowId: (await opened.json()).flowId as string };
}

test.describe('entradas y acciones (issue 28 §5)', () => {
  test('un descuento de 150 % o de -10 % queda como se escribió, se explica y no se guarda', async ({
    page,
  }) => {
    await page.goto('/reservas');
    const origin = new URL(page.url()).origin;
    const lastName = uniqueText('Descuentos');
    const client = await page.request.post('/api/clients', {
      headers: { origin },
      data: {
        rut: uniqueRut(),
        firstName: 'Delia',
        lastName,
        birthDate: '1985-02-11',
        phone: null,
        email: null,
      },
    });
    expect(client.status()).toBe(201);
    const number = uniqueText('D').replace(' ', '-');

    await page.goto('/reservas/nueva');
    await page.getByLabel('Buscar cliente').fill(`Delia ${lastName}`);
    await page
      .getByRole('listitem')
      .filter({ hasText: `Delia ${lastName}` })
      .click();
    await page.getByLabel('N° de reserva').fill(number);
    await page.getByRole('combobox', { name: 'Proyecto' }).click();
    await page.getByRole('option', { name: 'Edificio Los Aromos · Etapa 1' }).click();
    await page.getByLabel('N° departamento').fill(`D${uniqueText('').trim().slice(-6)}`);
    await page.getByLabel('Precio departamento').fill('3000');
    await page.getByLabel('Crédito hipotecario').fill('2900');

    const column = page.getByLabel('Descuento columna');
    const additional = page.getByLabel('Descuento adicional');
    await column.fill('150');
    await additional.fill('-10');
    await additional.blur();
    // Kept as typed, its sign too, each with its message.
    await expect(column).toHaveValue('150');
    await expect(additional).toHaveValue('-10');
    await expect(page.getByText('El descuento no puede superar 100 %')).toBeVisible();
    await expect(page.getByText('El descuento no puede ser negativo')).toBeVisible();
    // No minimum price is made of them.
    await expect(page.getByTestId('minimum-price')).toHaveText('—');

    // Saving is refused on the screen: it stays, with the values, and nothing reaches the server.
    let posted = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/reservations') posted++;
    });
    await page.getByRole('button', { name: 'Crear Reserva' }).click();
    await expect(column).toHaveAttribute('aria-invalid', 'true');
    await expect(page).toHaveURL(/\/reservas\/nueva/);
    await expect(column).toHaveValue('150');
    await expect(additional).toHaveValue('-10');
    expect(posted).toBe(0);
    const listed = await (
      await page.request.get(`/api/reservations?search=${encodeURIComponent(number)}`)
    ).json();
    expect(listed.total).toBe(0);

    // Back in range, it saves with what was typed.
    await column.fill('15');
    await additional.fill('10');
    await expect(page.getByText('El descuento no puede superar 100 %')).toHaveCount(0);
    await expect(page.getByText('El descuento no puede ser negativo')).toHaveCount(0);
    await page.getByRole('button', { name: 'Crear Reserva' }).click();
    await expect(page).toHaveURL(/\/reservas$/);
    const saved = await (
      await page.request.get(`/api/reservations?search=${encodeURIComponent(number)}`)
    ).json();
    expect(saved.total).toBe(1);
    const reservation = (await (await page.request.get(`/api/reservations/${saved.rows[0].id}`)).json())
      .reservation;
    expect(reservation).toMatchObject({ columnDiscount: '0.150000', additionalDiscount: '0.100000' });

    // Its edit form judges them the same way, and saves nothing out of range either.
    await page.goto(`/reservas/editar/${reservation.id}`);
    await page.getByLabel('Otro descuento').fill('150');
    await expect(page.getByText('El descuento no puede superar 100 %')).toBeVisible();
    await page.getByRole('button', { name: 'Guardar' }).click();
    await expect(page.getByLabel('Otro descuento')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel('Otro descuento')).toHaveValue('150');
    const after = (await (await page.request.get(`/api/reservations/${reservation.id}`)).json()).reservation;
    expect(after).toMatchObject({ otherDiscount: '0.000000', version: reservation.version });
  });

  test('un comentario sin enviar sobrevive a Escape y a cerrar: al volver a abrir está ahí', async ({
    page,
  }) => {
    await page.goto('/flujo-reservas');
    const origin = new URL(page.url()).origin;
    const reservation = await apiReservation(page.request, origin, {
      firstName: 'Berta',
      lastName: uniqueText('Borrador'),
      prefix: 'C',
    });
    const task = 'COF PENDIENTE GENERACIÓN';
    const draft = 'Falta la firma del codeudor; lo reviso el lunes';
    await page.goto(`/flujo-reservas/${reservation.saleFlowId}`);
    const open = () => page.getByRole('button', { name: `Comentarios de ${task}: 0` }).click();
    const dialog = page.getByRole('dialog', { name: 'Comentarios' });
    const box = dialog.getByLabel('Nuevo comentario');

    await open();
    await box.fill(draft);
    await expect(dialog.getByText('Si cierra, el borrador se conserva hasta que lo envíe')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await open();
    await expect(box).toHaveValue(draft);

    await dialog.getByRole('button', { name: 'Cerrar' }).click();
    await expect(dialog).toBeHidden();
    await open();
    await expect(box).toHaveValue(draft);

    // Sent, it is a comment and no longer a draft.
    await dialog.getByRole('button', { name: 'Comentar' }).click();
    await expect(dialog.getByRole('listitem').filter({ hasText: draft })).toBeVisible();
    await expect(box).toHaveValue('');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: `Comentarios de ${task}: 1` }).click();
    await expect(box).toHaveValue('');
  });

  test("quien no es administrador confirma antes de 'Completada'; Cancelar deja la tarea como estaba", async ({
    page,
    browser,
  }) => {
    await page.goto('/flujo-reservas');
    const origin = new URL(page.url()).origin;
    const reservation = await apiReservation(page.request, origin, {
      firstName: 'Carmen',
      lastName: uniqueText('Confirma'),
      prefix: 'K',
    });
    const flowUrl = `/api/sale-flows/${reservation.saleFlowId}`;
    const task = 'COF PENDIENTE GENERACIÓN';
    const kam = await signedOutPage(browser);
    try {
      await signIn(kam, ACCOUNTS.kam);
      await kam.goto(`/flujo-reservas/${reservation.saleFlowId}`);
      await expect(statusOf(kam, task)).toHaveValue('Pendiente');

      await pickStatus(kam, task, 'Completada');
      const confirm = kam.getByRole('dialog', { name: '¿Cambiar a «Completada»?' });
      await expect(confirm).toContainText(`La tarea ${task} pasará de «Pendiente» a «Completada».`);
      await expect(confirm).toContainText('Después usted no podrá deshacer este cambio');
      await confirm.getByRole('button', { name: 'Cancelar' }).click();
      await expect(confirm).toBeHidden();
      await expect(statusOf(kam, task)).toHaveValue('Pendiente');
      expect((await taskOf(page, flowUrl, task)).status).toBe('pending');

      // A change she can take back is not asked.
      await pickStatus(kam, task, 'En Proceso');
      await expect(statusOf(kam, task)).toHaveValue('En Proceso');
      await expect(kam.getByRole('dialog')).toHaveCount(0);

      // Confirmed, it is done, and indeed hers no more to change.
      await pickStatus(kam, task, 'Completada');
      await confirm.getByRole('button', { name: 'Confirmar' }).click();
      await expect(statusOf(kam, task)).toHaveValue('Completada');
      await expect(statusOf(kam, task)).toBeDisabled();
      expect((await taskOf(page, flowUrl, task)).status).toBe('completed');

      // An administrator, who could reopen it, is not asked.
      await page.goto(`/flujo-reservas/${reservation.saleFlowId}`);
      await pickStatus(page, 'COF PENDIENTE FIRMA', 'Completada');
      await expect(statusOf(page, 'COF PENDIENTE FIRMA')).toHaveValue('Completada');
      await expect(page.getByRole('dialog')).toHaveCount(0);
    } finally {
      await kam.context().close();
    }
  });

  test("'Proceder con Pago' pregunta antes de iniciar el flujo", async ({ page }) => {
    await page.goto('/pagos');
    const { reservation, flowId } = await pendingPaymentFlow(page, new URL(page.url()).origin);
    await page.goto(`/pagos/flujo/${flowId}`);
    await expect(page.getByTestId('flow-status')).toHaveText('Pendiente');

    await page.getByRole('button', { name: 'Proceder con Pago' }).click();
    const confirm = page.getByRole('dialog', { name: '¿Proceder con Pago?' });
    await expect(confirm).toContainText(`Se iniciará el Flujo de Pago N°\u00a0${reservation.number}`);
    await expect(confirm).toContainText('Después no se podrá deshacer');
    await confirm.getByRole('button', { name: 'Cancelar' }).click();
    await expect(confirm).toBeHidden();
    await expect(page.getByTestId('flow-status')).toHaveText('Pendiente');
    const waiting = (await (await page.request.get(`/api/payment-flows/${flowId}`)).json()).flow;
    expect(waiting.status).toBe('pending');

    await page.getByRole('button', { name: 'Proceder con Pago' }).click();
    await confirm.getByRole('button', { name: 'Confirmar' }).click();
    await expect(confirm).toBeHidden();
    await expect(page.getByTestId('flow-status')).toHaveText('En Proceso');
    await expect(page.getByRole('button', { name: 'Proceder con Pago' })).toHaveCount(0);
  });

  test("'Aprobar' y 'Aprobar Seleccionados' preguntan antes a quien no podría deshacerlo", async ({
    page,
    browser,
  }) => {
    test.setTimeout(120_000);
    await page.goto('/pagos');
    const origin = new URL(page.url()).origin;
    const gestora = await newStaffUser(page, browser, origin, { firstName: 'Javiera', lastName: 'Confirma' });
    try {
      // A started flow waiting at 'VB Jefe Inversiones', which is hers.
      const { reservation, flowId } = await pendingPaymentFlow(page, origin);
      const flowUrl = `/api/payment-flows/${flowId}`;
      expect((await page.request.post(`${flowUrl}/start`, { headers: { origin } })).ok()).toBe(true);
      for (const name of ['Solicitud Liquidación', 'Solicitud a Jefe Inversiones']) {
        const done = await page.request.put(
          `${flowUrl}/tasks/${(await taskOf(page, flowUrl, name)).id}/status`,
          {
            headers: { origin },
            data: { status: 'completed' },
          },
        );
        expect(done.ok(), await done.text()).toBe(true);
      }
      const vb = (await taskOf(page, flowUrl, 'VB Jefe Inversiones')).id;
      const assigned = await page.request.post(`${flowUrl}/tasks/${vb}/assignees`, {
        headers: { origin },
        data: { userId: gestora.id },
      });
      expect(assigned.ok(), await assigned.text()).toBe(true);

      // The detail's 'Aprobar': asked; 'Cancelar' approves nothing.
      const her = gestora.page;
      await her.goto(`/informes/aprobacion-liquidaciones/${vb}`);
      await her.getByRole('button', { name: 'Aprobar', exact: true }).click();
      const confirmOne = her.getByRole('dialog', { name: '¿Aprobar esta liquidación?' });
      await expect(confirmOne).toContainText(
        `Se aprobará VB Jefe Inversiones de la reserva N°\u00a0${reservation.number}`,
      );
      await expect(confirmOne).toContainText('Después usted no podrá deshacer esta aprobación.');
      await confirmOne.getByRole('button', { name: 'Cancelar' }).click();
      await expect(confirmOne).toBeHidden();
      await expect(her).toHaveURL(new RegExp(`/informes/aprobacion-liquidaciones/${vb}$`));
      expect((await taskOf(page, flowUrl, 'VB Jefe Inversiones')).status).toBe('pending');

      // 'Aprobar Seleccionados': asked too; confirmed, it is approved.
      await her.goto('/informes/aprobacion-liquidaciones');
      await her.getByRole('checkbox', { name: `Seleccionar reserva ${reservation.number}` }).check();
      await her.getByRole('button', { name: 'Aprobar Seleccionados (1)' }).click();
      const confirmBulk = her.getByRole('dialog', { name: '¿Aprobar esta liquidación?' });
      await expect(confirmBulk).toContainText('Se aprobará la liquidación seleccionada');
      await confirmBulk.getByRole('button', { name: 'Cancelar' }).click();
      await expect(confirmBulk).toBeHidden();
      expect((await taskOf(page, flowUrl, 'VB Jefe Inversiones')).status).toBe('pending');
      await her.getByRole('button', { name: 'Aprobar Seleccionados (1)' }).click();
      await confirmBulk.getByRole('button', { name: 'Confirmar' }).click();
      await expect(her.getByText('1 aprobación aprobada')).toBeVisible();
      await expect(her.getByText('No hay aprobaciones pendientes asignadas a su usuario')).toBeVisible();
      expect((await taskOf(page, flowUrl, 'VB Jefe Inversiones')).status).toBe('completed');
    } finally {
      await gestora.close();
    }
  });

  test('un archivo de texto llamado logo.png se rechaza al elegirlo, sin leyenda', async ({
    page: admin,
  }) => {
    await admin.goto('/configuracion/proyectos/nuevo');
    await expect(admin.getByRole('heading', { name: 'Nuevo Proyecto' })).toBeVisible();
    // The hint lists what the server takes.
    await expect(admin.getByText('JPG, PNG, GIF o WebP, máximo 2MB')).toBeVisible();
    const choose = async (file: { name: string; mimeType: string; buffer: Buffer }) => {
      const chooser = admin.waitForEvent('filechooser');
      await admin.getByRole('button', { name: /^(Seleccionar|Cambiar) imagen$/ }).click();
      await (await chooser).setFiles(file);
    };

    await choose({ name: 'logo.png', mimeType: 'image/png', buffer: Buffer.from('esto no es una imagen') });
    await expect(admin.getByRole('alert')).toHaveText(NOT_AN_IMAGE);
    await expect(admin.getByText('logo.png: se guardará al guardar el formulario')).toHaveCount(0);
    await expect(admin.getByRole('button', { name: 'Seleccionar imagen' })).toBeVisible();

    // A real image is taken, and a refused one after it gets no caption of its own.
    const png = await sharp({
      create: { width: 60, height: 40, channels: 3, background: { r: 30, g: 110, b: 190 } },
    })
      .png()
      .toBuffer();
    await choose({ name: 'logo-real.png', mimeType: 'image/png', buffer: png });
    await expect(admin.getByText('logo-real.png: se guardará al guardar el formulario')).toBeVisible();
    await expect(admin.getByRole('alert')).toHaveCount(0);
    await choose({ name: 'logo.png', mimeType: 'image/png', buffer: Buffer.from('tampoco') });
    await expect(admin.getByRole('alert')).toHaveText(NOT_AN_IMAGE);
    await expect(admin.getByText('logo.png: se guardará al guardar el formulario')).toHaveCount(0);

    // The user form's avatar says the same.
    await admin.goto('/configuracion/usuarios/nuevo');
    await expect(admin.getByText('JPG, PNG, GIF o WebP, máximo 2MB')).toBeVisible();
  });
});
