import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { apiReservation, uniqueText } from './fixtures';

// Issue 35: a reservation's documents, reached from its flows; a required document; its own PDFs.

const SHOTS = '.tmp/documents';

/** A small, well-formed PDF with one line of text that names the journey (so a download can be compared). */
function pdf(text: string): Buffer {
  const content = `BT /F1 18 Tf 20 100 Td (${text}) Tj ET`;
  return Buffer.from(
    `%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [3 0 R] /Count 1>> endobj\n` +
      `3 0 obj <</Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents 4 0 R ` +
      `/Resources <</Font <</F1 5 0 R>>>>>> endobj\n` +
      `4 0 obj <</Length ${content.length}>> stream\n${content}\nendstream endobj\n` +
      `5 0 obj <</Type /Font /Subtype /Type1 /BaseFont /Helvetica>> endobj\n` +
      'trailer <</Root 1 0 R>>\n%%EOF\n',
    'latin1',
  );
}

/** 'Subir documento' on the Documentos screen: a type, a file, 'Subir'. */
async function uploadDocument(page: Page, type: string, file: { name: string; buffer: Buffer }) {
  await page.getByRole('button', { name: 'Subir documento' }).click();
  const dialog = page.getByRole('dialog', { name: 'Subir documento' });
  await dialog.getByRole('combobox', { name: 'Tipo de documento' }).click();
  await page.getByRole('option', { name: type, exact: true }).click();
  await dialog.locator('input[type="file"]').setInputFiles({ ...file, mimeType: 'application/pdf' });
  await dialog.getByRole('button', { name: 'Subir' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('row').filter({ hasText: file.name })).toBeVisible();
}

const status = (page: Page, task: string) => page.getByRole('combobox', { name: `Estado de ${task}` });

test.describe('documentos', () => {
  test('un PDF subido en el flujo de venta se ve desde el flujo de pago y se descarga idéntico', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    mkdirSync(SHOTS, { recursive: true });
    await page.goto('/dashboard');
    const reservation = await apiReservation(page.request, new URL(page.url()).origin, {
      firstName: 'Daniela',
      lastName: uniqueText('Soto'),
      prefix: 'D',
      commission: { commissionAmount: '119', numberOfPayments: 1, firstPaymentPercentage: 100 },
    });
    await page.goto(`/flujo-reservas/${reservation.saleFlowId}`);
    await page.getByRole('link', { name: 'Documentos', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/reservas/${reservation.reservationId}/documentos$`));
    await expect(
      page.getByRole('heading', { name: `Documentos · Reserva N°\u00a0${reservation.number}` }),
    ).toBeVisible();
    await expect(page.getByText('Esta reserva aún no tiene documentos.')).toBeVisible();

    const bytes = pdf(uniqueText('cotizacion'));
    await uploadDocument(page, 'Comprobante de reserva', { name: 'Comprobante firmado.pdf', buffer: bytes });
    const row = page.getByRole('row').filter({ hasText: 'Comprobante firmado.pdf' });
    await expect(row).toContainText('Comprobante de reserva');
    await expect(row).toContainText('Alicia Administradora');
    await expect(row).toContainText(/\d{2}-\d{2}-\d{4}|\d{2}\/\d{2}\/\d{4}/);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.screenshot({ path: `${SHOTS}/panel-1440.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(row).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/panel-390.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 720 });

    // From the payment flow (opened from the sale flow): the same document.
    await page.getByRole('link', { name: 'Flujo de reserva' }).click();
    await expect(page).toHaveURL(new RegExp(`/flujo-reservas/${reservation.saleFlowId}$`));
    await page.getByRole('button', { name: 'Flujo de pago' }).click();
    await expect(page).toHaveURL(/\/pagos\/flujo\/[0-9a-f-]{36}$/);
    await page.getByRole('link', { name: 'Documentos', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/reservas/${reservation.reservationId}/documentos$`));
    const fromPayments = page.getByRole('row').filter({ hasText: 'Comprobante firmado.pdf' });
    await expect(fromPayments).toBeVisible();

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      fromPayments.getByRole('link', { name: 'Descargar Comprobante firmado.pdf' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('Comprobante firmado.pdf');
    const saved = `${SHOTS}/descarga.pdf`;
    await download.saveAs(saved);
    expect(readFileSync(saved).equals(bytes)).toBe(true);

    // The preview: PDF.js draws the page inside a frame sandboxed to scripts only, in an opaque
    // origin that reads no cookie of the app's.
    await fromPayments.getByRole('button', { name: 'Vista previa de Comprobante firmado.pdf' }).click();
    const preview = page.getByRole('dialog', { name: 'Comprobante firmado.pdf' });
    await expect(preview.locator('iframe')).toHaveAttribute('sandbox', 'allow-scripts');
    await expect(preview.getByText('1 página')).toBeVisible();
    const frame = page.frameLocator('iframe[title="Vista previa de Comprobante firmado.pdf"]');
    await expect(frame.getByRole('img', { name: 'Página 1 de 1' })).toBeVisible();
    const frameCookies = await frame.locator('body').evaluate(() => {
      try {
        return document.cookie;
      } catch {
        return 'sin acceso';
      }
    });
    expect(frameCookies).toBe('sin acceso');
    // Only the preview page may be framed, and only by our own pages.
    const policyOf = async (path: string) =>
      (await page.request.get(path)).headers()['content-security-policy'] ?? '';
    expect(await policyOf('/pdf-preview.html')).toContain("frame-ancestors 'self'");
    expect(await policyOf('/dashboard')).toContain("frame-ancestors 'none'");
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.screenshot({ path: `${SHOTS}/preview-1440.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${SHOTS}/preview-390.png` });
    await page.setViewportSize({ width: 1280, height: 720 });
    await preview.getByRole('button', { name: 'Cerrar' }).click();
  });

  test('una tarea que requiere un documento se rechaza sin él y se completa después de subirlo', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const task = 'FIRMA PROMESA COORDINADA';
    // Configuración → Documentos: 'Promesa firmada' required by the task.
    await page.goto('/configuracion/documentos');
    const typeRow = page.getByRole('row').filter({ hasText: 'Promesa firmada' });
    await typeRow.getByRole('button', { name: 'Editar Promesa firmada' }).click();
    const edit = page.getByRole('dialog', { name: 'Editar tipo de documento' });
    await edit.getByRole('combobox', { name: 'Requerido para completar las tareas' }).fill('FIRMA PROMESA');
    await page.getByRole('option', { name: task }).click();
    await edit.getByRole('button', { name: 'Guardar' }).click();
    await expect(edit).toBeHidden();
    await expect(typeRow).toContainText(task);
    const origin = new URL(page.url()).origin;
    try {
      const reservation = await apiReservation(page.request, origin, {
        firstName: 'Matías',
        lastName: uniqueText('Rojas'),
        prefix: 'M',
      });
      await page.goto(`/flujo-reservas/${reservation.saleFlowId}`);
      await status(page, task).click();
      await page.getByRole('option', { name: 'Completada', exact: true }).click();
      await expect(
        page.getByRole('alert').filter({ hasText: 'Falta el documento «Promesa firmada»' }),
      ).toHaveText(
        'Falta el documento «Promesa firmada» de esta reserva: súbalo en Documentos antes de completar la tarea.',
      );
      await expect(status(page, task)).not.toHaveValue('Completada');

      await page.getByRole('link', { name: 'Documentos', exact: true }).click();
      await expect(
        page.getByRole('alert').filter({ hasText: 'Documentos requeridos pendientes' }),
      ).toContainText(`Promesa firmada (lo requiere la tarea ${task})`);
      await uploadDocument(page, 'Promesa firmada', {
        name: 'Promesa.pdf',
        buffer: pdf(uniqueText('promesa')),
      });
      await expect(page.getByText('Documentos requeridos pendientes')).toHaveCount(0);

      await page.getByRole('link', { name: 'Flujo de reserva' }).click();
      await status(page, task).click();
      await page.getByRole('option', { name: 'Completada', exact: true }).click();
      await expect(status(page, task)).toHaveValue('Completada');
    } finally {
      // The requirement is global: the other journeys complete this task without a document.
      const types = await (await page.request.get('/api/document-types')).json();
      const promise = types.types.find((type: { name: string }) => type.name === 'Promesa firmada');
      const reset = await page.request.put(`/api/document-types/${promise.id}`, {
        headers: { origin },
        data: {
          name: promise.name,
          isRestricted: promise.isRestricted,
          sortOrder: promise.sortOrder,
          requiredByTaskIds: [],
          version: promise.version,
        },
      });
      expect(reset.status()).toBe(200);
    }
  });

  test('el Comprobante de Reserva se abre como PDF', async ({ page }) => {
    mkdirSync(SHOTS, { recursive: true });
    await page.goto('/dashboard');
    const reservation = await apiReservation(page.request, new URL(page.url()).origin, {
      firstName: 'Valentina',
      lastName: uniqueText('Muñoz'),
      prefix: 'V',
    });
    await page.goto(`/reservas/${reservation.reservationId}/documentos`);
    const link = page.getByRole('link', { name: 'Comprobante de Reserva' });
    await expect(link).toHaveAttribute('target', '_blank');
    const href = (await link.getAttribute('href'))!;
    // A new tab asks for the PDF (a browser without a PDF viewer, as the headless shell, then saves
    // it instead of showing it: the tab's address may stay blank, its request is what tells).
    const fetched = page
      .context()
      .waitForEvent('response', (answer) => new URL(answer.url()).pathname === href);
    const [popup, opened] = await Promise.all([page.waitForEvent('popup'), fetched, link.click()]);
    expect(popup).toBeTruthy();
    expect(opened.status()).toBe(200);
    expect(opened.headers()['content-type']).toBe('application/pdf');
    const response = await page.request.get(href);
    expect(response.headers()['content-type']).toBe('application/pdf');
    const bytes = await response.body();
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    // The same data, the same bytes.
    expect((await (await page.request.get(href)).body()).equals(bytes)).toBe(true);
    const file = `${SHOTS}/comprobante.pdf`;
    writeFileSync(file, bytes);
    execFileSync('pdftoppm', ['-png', '-r', '80', '-singlefile', file, `${SHOTS}/comprobante`]);
    expect(statSync(`${SHOTS}/comprobante.png`).size).toBeGreaterThan(5_000);
  });
});
