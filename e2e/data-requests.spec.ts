import { readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import readXlsxFile from 'read-excel-file/node';
import { formatRut } from '../src/shared/domain/rut';
import { uniqueRut, uniqueText } from './fixtures';

// Issue 27: a holder's rights under Ley 21.719, as an administrator answers them — the request
// registered, the holder's data exported (the files opened and read), then their data suppressed.

/** A client who bought and rescinded, made through the API: nothing of theirs is in progress. */
async function holderWithAFinishedSale(page: Page, origin: string) {
  const headers = { origin };
  const rut = uniqueRut();
  const lastName = uniqueText('Valdivieso');
  const client = await page.request.post('/api/clients', {
    headers,
    data: {
      rut,
      firstName: 'Leontina',
      lastName,
      birthDate: '1979-03-21',
      phone: '+56 9 7111 2233',
      email: `leontina.${Date.now()}@correo.cl`,
    },
  });
  expect(client.status(), await client.text()).toBe(201);
  const clientId = (await client.json()).client.id as string;
  const options = await (await page.request.get('/api/reservations/form-options')).json();
  const project = options.projects.find(
    (candidate: { name: string }) => candidate.name === 'Edificio Los Aromos',
  );
  const apartment = String(7000 + Math.floor(Math.random() * 2999));
  const reservation = await page.request.post('/api/reservations', {
    headers,
    data: {
      reservationNumber: uniqueText('T').replace(' ', '-'),
      clientId,
      projectId: project.id,
      sellerId: null,
      reservationDate: '2026-09-10',
      apartmentNumber: apartment,
      apartmentPrice: '3100',
      columnDiscount: '0',
      additionalDiscount: '0',
      otherDiscount: '0',
      creditPayment: '3000',
      isWithBroker: false,
      brokerId: null,
    },
  });
  expect(reservation.status(), await reservation.text()).toBe(201);
  const { id: reservationId, reservationNumber } = (await reservation.json()).reservation;
  const rescinded = await page.request.post(`/api/reservations/${reservationId}/rescission`, {
    headers,
    data: { reason: 'El cliente desistió', confirmation: 'CONFIRMAR' },
  });
  expect(rescinded.status(), await rescinded.text()).toBe(200);
  return { rut, lastName, fullName: `Leontina ${lastName}`, reservationId, reservationNumber };
}

/** Configuración → 'Solicitudes de titulares' → 'Registrar solicitud'; the request's page opens. */
async function registerRequest(page: Page, kind: 'Acceso' | 'Supresión', rut: string) {
  await page.goto('/configuracion/solicitudes-titulares');
  await page.getByRole('button', { name: 'Registrar solicitud' }).click();
  const dialog = page.getByRole('dialog', { name: 'Registrar solicitud' });
  await dialog.getByRole('combobox', { name: 'Tipo de solicitud' }).click();
  await page.getByRole('option', { name: kind, exact: true }).click();
  await dialog.getByLabel('RUT del titular').fill(rut);
  await dialog.getByRole('button', { name: 'Registrar' }).click();
  await expect(page).toHaveURL(/\/configuracion\/solicitudes-titulares\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId('request-card')).toContainText(kind);
}

test.describe('solicitudes de titulares', () => {
  test('el administrador registra una solicitud de acceso, exporta los datos del titular y luego los suprime', async ({
    page,
  }) => {
    test.setTimeout(180_000);
    await page.goto('/configuracion/solicitudes-titulares');
    const origin = new URL(page.url()).origin;
    const holder = await holderWithAFinishedSale(page, origin);

    // Access: registered with its 30-day deadline, then the holder's data exported and read.
    await registerRequest(page, 'Acceso', holder.rut);
    await expect(page.getByTestId('request-card')).toContainText('Vence en 30 días');
    await expect(page.getByTestId('holder-card')).toContainText(holder.fullName);
    const json = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Exportar datos del titular (JSON)' }).click();
    const jsonFile = await json;
    expect(jsonFile.suggestedFilename()).toMatch(/^datos_titular_\d{4}-\d{2}-\d{2}\.json$/);
    const data = JSON.parse(readFileSync((await jsonFile.path())!, 'utf8'));
    expect(data.titular).toMatchObject({
      rut: formatRut(holder.rut),
      nombres: 'Leontina',
      apellidos: holder.lastName,
      fechaNacimiento: '1979-03-21',
    });
    expect(data.reservas).toEqual([
      expect.objectContaining({ numero: holder.reservationNumber, resciliada: true }),
    ]);
    const xlsx = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Exportar datos del titular (Excel)' }).click();
    const sheets = await readXlsxFile(readFileSync((await (await xlsx).path())!));
    expect(sheets[0]!.sheet).toBe('Titular');
    expect(sheets[0]!.data[1]).toContain(holder.lastName);
    // It reads as a document for a person (issue 54): Spanish headers, typed dates, the history in words.
    expect(sheets[0]!.data[0]).toEqual(
      expect.arrayContaining(['RUT', 'Nombres', 'Apellidos', 'Fecha de nacimiento']),
    );
    expect(sheets[0]!.data[1]![sheets[0]!.data[0]!.indexOf('Fecha de nacimiento')]).toBeInstanceOf(Date);
    const history = sheets.find((sheet) => sheet.sheet === 'Historial')!.data;
    expect(history[0]).toEqual(['Fecha', 'Usuario', 'Registro', 'Qué pasó', 'Qué cambió']);
    expect(history.flat().join(' ')).not.toContain('registro eliminado');
    expect(history.flat().join(' ')).not.toMatch(/in_progress|completed/);

    // Suppression: typed SUPRIMIR, irreversible, and then the person is nowhere to be found.
    await registerRequest(page, 'Supresión', holder.rut);
    await page.getByRole('button', { name: 'Suprimir datos personales' }).click();
    const dialog = page.getByRole('dialog', { name: 'Suprimir datos personales' });
    await expect(dialog.getByText('Esta acción es irreversible')).toBeVisible();
    const confirm = dialog.getByRole('button', { name: 'Suprimir datos personales' });
    await expect(confirm).toBeDisabled();
    await dialog.getByLabel('Para confirmar, escriba SUPRIMIR').fill('SUPRIMIR');
    await confirm.click();
    const done = page.getByRole('dialog', { name: 'Datos personales suprimidos' });
    await expect(done.getByRole('table', { name: 'Resultado de la supresión' })).toBeVisible();
    await done.getByRole('button', { name: 'Cerrar' }).first().click();
    await expect(page.getByTestId('holder-card')).toContainText('Titular suprimido');

    // The sale stays, its buyer shown as 'Titular suprimido'.
    await page.goto(`/reservas/editar/${holder.reservationId}`);
    await expect(page.getByText('Titular suprimido').first()).toBeVisible();
    await expect(page.getByText(holder.lastName)).toHaveCount(0);

    // The global search no longer finds the name.
    await page.goto('/dashboard');
    const search = page.getByRole('combobox', { name: 'Búsqueda global' });
    await search.fill(holder.lastName);
    await expect(page.getByText(`Sin resultados para «${holder.lastName}»`)).toBeVisible();
  });

  test('Retención dice cuántos días se guardan los archivos importados y las copias de correos', async ({
    page,
  }) => {
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/configuracion/solicitudes-titulares?vista=retencion');
      const importDays = page.getByLabel('Días que se guardan los archivos importados');
      const mailDays = page.getByLabel('Días que se guardan las copias de correos (.eml)');
      await expect(importDays).toHaveValue('30');
      await expect(mailDays).toHaveValue('30');
      // Out of range: refused in Spanish before anything is sent (nothing is saved here: other
      // journeys read these settings).
      await importDays.fill('0');
      await page.getByRole('button', { name: 'Guardar' }).click();
      await expect(page.getByText('Indique los días (entre 1 y 3650).')).toBeVisible();
      await page.screenshot({ path: `.tmp/screens/retencion-dias-${width}.png`, fullPage: true });
    }
  });
});
