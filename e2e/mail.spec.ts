import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { type ParsedMail, simpleParser } from 'mailparser';
import { severeAxeViolations } from './axe';
import { ACCOUNTS, apiReservation, newStaffUser, uniqueText } from './fixtures';

// Issue 34: e-mail notices. The e2e server has no SMTP_URL, so each message it sends is written as an
// .eml file under its data directory (scripts/e2e-server.mjs: .tmp/e2e-data); these journeys read them.

const MAIL_FOLDER = join('.tmp', 'e2e-data', 'mail');

async function mailsTo(address: string): Promise<ParsedMail[]> {
  let files: string[];
  try {
    files = readdirSync(MAIL_FOLDER).filter((name) => name.endsWith('.eml'));
  } catch {
    return [];
  }
  const parsed = await Promise.all(files.map((name) => simpleParser(readFileSync(join(MAIL_FOLDER, name)))));
  return parsed.filter((mail) => {
    const to = Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : [];
    return to.some((entry) => entry.value.some((value) => value.address === address));
  });
}

/** Waits (the sender polls every few seconds) for a message to `address` whose subject matches. */
async function waitForMail(address: string, subject: RegExp): Promise<ParsedMail> {
  let found: ParsedMail | undefined;
  await expect
    .poll(
      async () => {
        found = (await mailsTo(address)).find((mail) => subject.test(mail.subject ?? ''));
        return Boolean(found);
      },
      { timeout: 30_000, intervals: [500, 1000, 2000] },
    )
    .toBe(true);
  return found!;
}

const TASK = 'COF PENDIENTE FIRMA';
const taskCard = (page: Page, name: string) =>
  page.getByRole('list', { name: /^Tareas de / }).getByRole('listitem', { name, exact: true });

test.describe('avisos por correo', () => {
  test('una mención y una aprobación pendiente llegan por correo, con el enlace a la tarea', async ({
    page,
    browser,
  }) => {
    test.setTimeout(180_000);
    await page.goto('/dashboard');
    const origin = new URL(page.url()).origin;
    const approver = await newStaffUser(page, browser, origin, { firstName: 'Valeria', lastName: 'Correo' });

    // A mention of Karla in a comment of a sale flow's task.
    const reservation = await apiReservation(page.request, origin, {
      firstName: 'Marta',
      lastName: uniqueText('Correo'),
      prefix: 'C',
    });
    await page.goto(`/flujo-reservas/${reservation.saleFlowId}`);
    await taskCard(page, TASK)
      .getByRole('button', { name: `Comentarios de ${TASK}: 0` })
      .click();
    const comments = page.getByRole('dialog', { name: 'Comentarios' });
    const box = comments.getByLabel('Nuevo comentario');
    await box.pressSequentially('Hola @karla');
    await comments.getByRole('option', { name: new RegExp(ACCOUNTS.kam.name) }).click();
    await box.pressSequentially('revisa <esto> por favor');
    await comments.getByRole('button', { name: 'Comentar' }).click();
    await expect(comments.getByRole('listitem')).toHaveCount(1);

    const mention = await waitForMail(ACCOUNTS.kam.email, new RegExp(`mencionó a Karla en ${TASK}`));
    expect(mention.subject).toBe(
      `${ACCOUNTS.admin.name} mencionó a Karla en ${TASK} · Reserva N° ${reservation.number}`,
    );
    expect(mention.text).toContain(`@${ACCOUNTS.kam.name} revisa <esto> por favor`);
    expect(mention.text).toContain(`/flujo-reservas/${reservation.saleFlowId}?comentarios=`);
    expect(mention.html).toContain('revisa &#60;esto&#62; por favor');

    // An approval waiting for Valeria: a payment flow at 'VB Jefe Inversiones', assigned to her.
    const sold = await apiReservation(page.request, origin, {
      firstName: 'Olga',
      lastName: uniqueText('Correo'),
      prefix: 'D',
      commission: { commissionAmount: '1234.5', numberOfPayments: 1, firstPaymentPercentage: 100 },
    });
    const opened = await page.request.post(`/api/payments/${sold.reservationId}/first-flow`, {
      headers: { origin },
    });
    const flowId = (await opened.json()).flowId as string;
    expect(
      (await page.request.post(`/api/payment-flows/${flowId}/start`, { headers: { origin } })).ok(),
    ).toBe(true);
    const flow = (await (await page.request.get(`/api/payment-flows/${flowId}`)).json()).flow;
    const taskIds: Record<string, string> = Object.fromEntries(
      flow.stages
        .flatMap((stage: { tasks: { id: string; name: string }[] }) => stage.tasks)
        .map((task: { id: string; name: string }) => [task.name, task.id]),
    );
    for (const name of ['Solicitud Liquidación', 'Solicitud a Jefe Inversiones']) {
      const done = await page.request.put(`/api/payment-flows/${flowId}/tasks/${taskIds[name]}/status`, {
        headers: { origin },
        data: { status: 'completed' },
      });
      expect(done.ok(), await done.text()).toBe(true);
    }
    const assigned = await page.request.post(
      `/api/payment-flows/${flowId}/tasks/${taskIds['VB Jefe Inversiones']}/assignees`,
      { headers: { origin }, data: { userId: approver.id } },
    );
    expect(assigned.ok(), await assigned.text()).toBe(true);

    const approverEmail = `valeria-${approver.name.split(' ').at(-1)}@inmoflujo.test`;
    const approval = await waitForMail(approverEmail, /^Aprobación pendiente/);
    expect(approval.subject).toBe(`Aprobación pendiente: VB Jefe Inversiones · Reserva N° ${sold.number}`);
    expect(approval.text).toContain('Comisión');
    expect(approval.text).toContain('UF 1.234,50');
    expect(approval.text).toContain(`/pagos/flujo/${flowId}?comentarios=${taskIds['VB Jefe Inversiones']}`);
    await approver.close();
  });

  test('Configuración → Correos muestra un correo fallido con la respuesta del servidor y lo reintenta', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.goto('/configuracion/correos');
    await expect(page.getByRole('heading', { name: 'Configuración', level: 2 })).toBeVisible();
    await expect(page.getByText('cada correo se guarda como archivo .eml')).toBeVisible();
    await page.getByLabel('Estado').selectOption({ label: 'Fallido' });
    await expect(page).toHaveURL(/estado=failed/);
    const table = page.getByRole('table', { name: 'Correos' });
    const failed = table.getByRole('row').filter({ hasText: '550 5.1.1 Buzón no disponible (prueba e2e)' });
    await expect(failed).toHaveCount(1);
    await expect(failed.getByText('Fallido')).toBeVisible();
    await expect(failed).toContainText('Correo de prueba de Inmoflujo');

    await failed.getByRole('button', { name: `Reintentar el correo a ${ACCOUNTS.admin.email}` }).click();
    await expect(page.getByText('El correo se enviará en unos segundos')).toBeVisible();
    // Sent: it leaves the failed ones and shows as sent among all.
    await expect(failed).toHaveCount(0, { timeout: 15_000 });
    await page.getByLabel('Estado').selectOption({ label: 'Enviado' });
    const sent = table.getByRole('row').filter({ hasText: 'Correo de prueba de Inmoflujo' });
    await expect(sent.first().getByText('Enviado')).toBeVisible();
    await waitForMail(ACCOUNTS.admin.email, /^Correo de prueba de Inmoflujo$/);

    // Every message, read afresh: the retried one is sent, no answer of a refusal is left.
    await page.getByLabel('Estado').selectOption({ label: 'Todos' });
    await expect(table.getByRole('row').filter({ hasText: '550 5.1.1' })).toHaveCount(0);
    await page.setViewportSize({ width: 1440, height: 900 });
    // The list's loader gone (the screen reads the list again shortly after a retry).
    await expect(page.locator('.mantine-datatable-loader-fetching')).toHaveCount(0);
    await page.screenshot({ path: '.tmp/mail-correos-1440.png', fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: '.tmp/mail-correos-390.png' });
  });

  test('cada usuario elige sus avisos por correo desde la barra superior', async ({ page }) => {
    await page.goto('/dashboard');
    await page.getByRole('button', { name: 'Avisos por correo' }).click();
    const dialog = page.getByRole('dialog', { name: 'Avisos por correo' });
    const digest = dialog.getByLabel('Resumen diario de tareas atrasadas (08:00, días hábiles)');
    await expect(digest).toBeChecked();
    await page.screenshot({ path: '.tmp/mail-preferences-1440.png' });
    expect(await severeAxeViolations(page, '[role="dialog"]')).toEqual([]);
    await digest.uncheck();
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await expect(page.getByText('Avisos por correo guardados')).toBeVisible();
    await page.reload();
    await page.getByRole('button', { name: 'Avisos por correo' }).click();
    await expect(
      page.getByRole('dialog', { name: 'Avisos por correo' }).getByLabel(/^Resumen diario/),
    ).not.toBeChecked();
    await page
      .getByRole('dialog', { name: 'Avisos por correo' })
      .getByLabel(/^Resumen diario/)
      .check();
    await page
      .getByRole('dialog', { name: 'Avisos por correo' })
      .getByRole('button', { name: 'Guardar' })
      .click();
    await expect(page.getByText('Avisos por correo guardados')).toBeVisible();
  });
});
