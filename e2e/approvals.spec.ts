import { readFileSync } from 'node:fs';
import { type Browser, expect, type Page, test } from '@playwright/test';
import {
  ACCOUNTS,
  ADMIN_STATE,
  apiReservation,
  newStaffUser,
  SIGNED_OUT,
  signIn,
  uniqueText,
} from './fixtures';

// Issue 15: Aprobaciones → Liquidaciones, as the demo's Jefe de Inversiones (scripts/e2e-setup.ts leaves
// him three 'VB Jefe Inversiones' approvals waiting).

const INVESTMENT_HEAD = { email: 'rodrigo.saavedra@demo.inmoflujo.cl', password: 'demo-inmoflujo' };

test.use(SIGNED_OUT);

const rowBoxes = (page: Page) => page.getByRole('checkbox', { name: /^Seleccionar reserva / });

/** The reservation numbers of the listed approvals, in the list's order. */
async function listedReservations(page: Page): Promise<string[]> {
  const labels = await rowBoxes(page).evaluateAll((boxes) =>
    boxes.map((box) => box.getAttribute('aria-label')),
  );
  return labels.map((label) => String(label).replace('Seleccionar reserva ', ''));
}

/** The approval of a reservation among the user's own, read from the API (its task and flow). */
async function approvalOf(page: Page, reservationNumber: string) {
  const page1 = await (await page.request.get('/api/approvals?approval=todas&pageSize=100')).json();
  const row = page1.rows.find(
    (candidate: { reservationNumber: string }) => candidate.reservationNumber === reservationNumber,
  );
  expect(row, `approval of ${reservationNumber}`).toBeTruthy();
  return row as { taskId: string; flowId: string };
}

test.describe('aprobaciones', () => {
  test('el Jefe de Inversiones aprueba dos liquidaciones a la vez y rechaza la tercera con un motivo', async ({
    page,
  }) => {
    test.setTimeout(180_000);
    await signIn(page, INVESTMENT_HEAD);

    // The menu entry 'Aprobaciones' (administrators) with its submenu 'Liquidaciones'.
    await page.getByRole('button', { name: 'Aprobaciones' }).click();
    await page.getByRole('link', { name: 'Liquidaciones' }).click();
    await expect(page).toHaveURL(/\/informes\/aprobacion-liquidaciones$/);
    await expect(page.getByRole('heading', { name: 'Aprobación de Liquidaciones' })).toBeVisible();
    await expect(rowBoxes(page)).toHaveCount(3);
    const approve = page.getByRole('button', { name: /^Aprobar Seleccionados/ });
    await expect(approve).toHaveText('Aprobar Seleccionados (0)');
    await expect(approve).toBeDisabled();

    const [first, second, third] = await listedReservations(page);
    const flows = {
      first: await approvalOf(page, first!),
      second: await approvalOf(page, second!),
      third: await approvalOf(page, third!),
    };

    // The CSV downloads with those rows.
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Exportar CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^aprobaciones_pendientes_\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync((await file.path())!, 'utf8');
    expect(csv.startsWith('\uFEFFN° Reserva;Cliente;RUT;')).toBe(true);
    const csvRows = csv.trim().split('\r\n').slice(1);
    expect(csvRows.map((line) => line.split(';')[0])).toEqual([first, second, third]);
    // And as Excel.
    const workbook = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Exportar Excel' }).click();
    expect((await workbook).suggestedFilename()).toMatch(/^aprobaciones_pendientes_\d{4}-\d{2}-\d{2}\.xlsx$/);

    // Approve two at once: the count falls to one.
    await page.getByRole('checkbox', { name: `Seleccionar reserva ${first}` }).check();
    await page.getByRole('checkbox', { name: `Seleccionar reserva ${second}` }).check();
    await expect(approve).toHaveText('Aprobar Seleccionados (2)');
    await approve.click();
    await expect(page.getByText('2 aprobaciones aprobadas')).toBeVisible();
    await expect(rowBoxes(page)).toHaveCount(1);
    expect(await listedReservations(page)).toEqual([third]);
    await expect(approve).toHaveText('Aprobar Seleccionados (0)');

    // The next tasks opened on their flows (the approved stage is complete, so folded).
    for (const approved of [flows.first, flows.second]) {
      await page.goto(`/pagos/flujo/${approved.flowId}`);
      await expect(page.getByRole('combobox', { name: 'Estado de Solicitud Gerente Comercial' })).toHaveValue(
        'Pendiente',
      );
    }

    // The third: its detail, then 'Rechazar' with a reason.
    await page.goto('/informes/aprobacion-liquidaciones');
    await page.getByRole('row').filter({ hasText: third! }).click();
    await expect(page).toHaveURL(new RegExp(`/informes/aprobacion-liquidaciones/${flows.third.taskId}$`));
    for (const card of [
      'Tarea',
      'Cliente',
      'Broker',
      'Reserva',
      'Comisión',
      'Precios y Descuentos',
      'Forma de Pago',
      'Resumen Financiero',
      'Cadena de Aprobaciones',
    ]) {
      await expect(page.getByRole('heading', { name: card, exact: true })).toBeVisible();
    }
    await page.getByRole('button', { name: 'Rechazar' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rechazar Aprobación' });
    const confirm = dialog.getByRole('button', { name: 'Confirmar Rechazo' });
    await expect(confirm).toBeDisabled();
    // An administrator can reopen what they reject: no warning.
    await expect(dialog.getByTestId('reject-final')).toHaveCount(0);
    await dialog.getByLabel('Motivo del rechazo').fill('   ');
    await expect(confirm).toBeDisabled();
    await dialog.getByLabel('Motivo del rechazo').fill('La factura del broker no coincide con la OC');
    await confirm.click();
    await expect(page).toHaveURL(/\/informes\/aprobacion-liquidaciones$/);
    await expect(page.getByText('No hay aprobaciones pendientes asignadas a su usuario')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Exportar CSV' })).toBeDisabled();

    // The 'RECHAZO: …' comment is on the payment flow, by him.
    await page.goto(`/pagos/flujo/${flows.third.flowId}`);
    await expect(page.getByRole('combobox', { name: 'Estado de VB Jefe Inversiones' })).toHaveValue(
      'Bloqueada',
    );
    await page.getByRole('button', { name: 'Comentarios de VB Jefe Inversiones: 1' }).click();
    const comments = page.getByRole('dialog', { name: 'Comentarios' });
    await expect(comments.getByText('RECHAZO: La factura del broker no coincide con la OC')).toBeVisible();
    await expect(comments.getByText(/Rodrigo Saavedra/)).toBeVisible();
    await comments.getByRole('button', { name: 'Cerrar' }).click();
    // The task itself says who rejected it and why.
    await expect(
      page.getByRole('listitem', { name: 'VB Jefe Inversiones', exact: true }).getByTestId('task-rejection'),
    ).toContainText(/Rechazada por Rodrigo Saavedra .*: La factura del broker no coincide con la OC/);

    // The detail's chain says who rejected it and why.
    await page.goto(`/informes/aprobacion-liquidaciones/${flows.third.taskId}`);
    await expect(page.getByTestId('chain-rejection')).toContainText('Rechazada por Rodrigo Saavedra');
    await expect(page.getByRole('button', { name: 'Aprobar', exact: true })).toHaveCount(0);
  });

  test("una dirección sin aprobación dice 'No se encontró la información de aprobación'", async ({
    page,
  }) => {
    await signIn(page, INVESTMENT_HEAD);
    await page.goto('/informes/aprobacion-liquidaciones/00000000-0000-4000-8000-000000000000');
    await expect(page.getByText('No se encontró la información de aprobación')).toBeVisible();
    await page.getByRole('link', { name: 'Volver' }).click();
    await expect(page).toHaveURL(/\/informes\/aprobacion-liquidaciones$/);
  });

  test("solo la persona asignada o un administrador decide 'VB Jefe Inversiones'; un rechazo muestra su motivo", async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const admin = await signedInAs(browser, ADMIN_STATE);
    const origin = new URL(admin.url()).origin;
    const gestora = await newStaffUser(admin, browser, origin, {
      firstName: 'Javiera',
      lastName: 'Aprobadora',
    });
    const kam = await signedInAs(browser);
    await signIn(kam, ACCOUNTS.kam);
    try {
      // A first payment flow, started, waiting at 'VB Jefe Inversiones', which is hers.
      const reservation = await apiReservation(admin.request, origin, {
        firstName: 'Olga',
        lastName: uniqueText('Vidal'),
        prefix: 'V',
        commission: { commissionAmount: '150', numberOfPayments: 1, firstPaymentPercentage: 100 },
      });
      const opened = await admin.request.post(`/api/payments/${reservation.reservationId}/first-flow`, {
        headers: { origin },
      });
      const flowId = (await opened.json()).flowId as string;
      expect(
        (await admin.request.post(`/api/payment-flows/${flowId}/start`, { headers: { origin } })).ok(),
      ).toBe(true);
      const taskIds = await taskIdsOf(admin, flowId);
      for (const name of ['Solicitud Liquidación', 'Solicitud a Jefe Inversiones']) {
        const done = await admin.request.put(`/api/payment-flows/${flowId}/tasks/${taskIds[name]}/status`, {
          headers: { origin },
          data: { status: 'completed' },
        });
        expect(done.ok(), await done.text()).toBe(true);
      }
      const vb = taskIds['VB Jefe Inversiones']!;
      const assigned = await admin.request.post(`/api/payment-flows/${flowId}/tasks/${vb}/assignees`, {
        headers: { origin },
        data: { userId: gestora.id },
      });
      expect(assigned.ok(), await assigned.text()).toBe(true);

      // Karla (KAM) is not its assignee: no way to decide it, and the screen says why.
      const notHers =
        'Solo la persona asignada a esta aprobación o un administrador puede aprobarla, rechazarla o reasignarla';
      await kam.goto(`/pagos/flujo/${flowId}`);
      const kamStatus = vbStatus(kam);
      await expect(kamStatus).toHaveValue('Pendiente');
      await expect(kamStatus).toBeDisabled();
      await expect(kamStatus).toHaveAttribute('aria-description', notHers);
      await kamStatus.locator('..').hover();
      await expect(kam.getByRole('tooltip')).toHaveText(notHers);
      await expect(
        vbCard(kam).getByRole('button', { name: 'Asignar responsable a VB Jefe Inversiones' }),
      ).toBeDisabled();
      await kam.goto(`/informes/aprobacion-liquidaciones/${vb}`);
      await expect(kam.getByTestId('decision-locked')).toHaveText(notHers);
      await expect(kam.getByRole('button', { name: 'Aprobar', exact: true })).toHaveCount(0);
      await expect(kam.getByRole('button', { name: 'Rechazar', exact: true })).toHaveCount(0);

      // Javiera, its assignee, may decide it: the select offers every status but 'Bloqueada' (a
      // rejection takes a reason), and the detail offers 'Rechazar' and 'Aprobar'.
      const her = gestora.page;
      await her.goto(`/pagos/flujo/${flowId}`);
      await expect(vbStatus(her)).toBeEnabled();
      await vbStatus(her).click();
      await expect(her.getByRole('option', { name: 'Bloqueada' })).toHaveAttribute(
        'data-combobox-disabled',
        'true',
      );
      await expect(her.getByRole('option', { name: 'Completada' })).not.toHaveAttribute(
        'data-combobox-disabled',
      );
      await her.keyboard.press('Escape');
      await her.goto(`/informes/aprobacion-liquidaciones/${vb}`);
      await her.getByRole('button', { name: 'Rechazar', exact: true }).click();
      const dialog = her.getByRole('dialog', { name: 'Rechazar Aprobación' });
      // She could not reopen it afterwards (the engine says so): the popup tells her before.
      await expect(dialog.getByTestId('reject-final')).toContainText('solo un administrador puede reabrir');
      await dialog.getByLabel('Motivo del rechazo').fill('Falta la boleta de honorarios');
      await dialog.getByRole('button', { name: 'Confirmar Rechazo' }).click();
      await expect(her).toHaveURL(/\/informes\/aprobacion-liquidaciones$/);

      // The rejection shows on the task and in the chain, with who and why — to everyone.
      await kam.goto(`/pagos/flujo/${flowId}`);
      await expect(vbStatus(kam)).toHaveValue('Bloqueada');
      await expect(vbCard(kam).getByTestId('task-rejection')).toContainText(
        new RegExp(`Rechazada por ${gestora.name} .*: Falta la boleta de honorarios`),
      );
      await kam.goto(`/informes/aprobacion-liquidaciones/${vb}`);
      await expect(kam.getByTestId('chain-rejection')).toContainText(`Rechazada por ${gestora.name}`);
      await expect(kam.getByTestId('chain-rejection')).toContainText('Falta la boleta de honorarios');

      // An administrator may decide it: she reopens it, then approves it from the select.
      await admin.goto(`/pagos/flujo/${flowId}`);
      await vbStatus(admin).click();
      await admin.getByRole('option', { name: 'Pendiente', exact: true }).click();
      await expect(vbStatus(admin)).toHaveValue('Pendiente');
      await expect(vbCard(admin).getByTestId('task-rejection')).toHaveCount(0);
      await vbStatus(admin).click();
      await admin.getByRole('option', { name: 'Completada', exact: true }).click();
      await expect(vbStatus(admin)).toHaveValue('Completada');
    } finally {
      await gestora.close();
      await kam.context().close();
      await admin.context().close();
    }
  });
});

const vbCard = (page: Page) =>
  page
    .getByRole('list', { name: /^Tareas de / })
    .getByRole('listitem', { name: 'VB Jefe Inversiones', exact: true });
const vbStatus = (page: Page) => page.getByRole('combobox', { name: 'Estado de VB Jefe Inversiones' });

/** A page of its own browser context: signed in from a saved state, or signed out. */
async function signedInAs(browser: Browser, storageState?: string): Promise<Page> {
  const context = await browser.newContext({
    baseURL: test.info().project.use.baseURL,
    locale: 'es-CL',
    timezoneId: 'America/Santiago',
    storageState: storageState ?? { cookies: [], origins: [] },
  });
  const page = await context.newPage();
  if (storageState) await page.goto('/dashboard');
  return page;
}

/** A payment flow's task row ids by task name, read from the API. */
async function taskIdsOf(page: Page, flowId: string): Promise<Record<string, string>> {
  const flow = (await (await page.request.get(`/api/payment-flows/${flowId}`)).json()).flow;
  return Object.fromEntries(
    flow.stages
      .flatMap((stage: { tasks: { id: string; name: string }[] }) => stage.tasks)
      .map((task: { id: string; name: string }) => [task.name, task.id]),
  );
}
