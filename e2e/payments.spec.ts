import { expect, type Page, test } from '@playwright/test';
import { apiReservation, newStaffUser, uniqueText } from './fixtures';

// Issue 13: a commission paid through both payment flows, and the rescission of a paid reservation.

const status = (page: Page, task: string) => page.getByRole('combobox', { name: `Estado de ${task}` });
const taskCard = (page: Page, name: string) =>
  page.getByRole('list', { name: /^Tareas de / }).getByRole('listitem', { name, exact: true });

async function complete(page: Page, task: string) {
  await status(page, task).click();
  await page.getByRole('option', { name: 'Completada', exact: true }).click();
  await expect(status(page, task)).toHaveValue('Completada');
}

/** 'Proceder con Pago', and 'Confirmar' in the question it asks (starting cannot be undone). */
async function proceedWithPayment(page: Page) {
  await page.getByRole('button', { name: 'Proceder con Pago' }).click();
  const confirm = page.getByRole('dialog', { name: '¿Proceder con Pago?' });
  await confirm.getByRole('button', { name: 'Confirmar' }).click();
  await expect(confirm).toBeHidden();
}

/**
 * Completes through the screen, in the flow's order, every task still open — and those they open —
 * until the flow has none left.
 */
async function completeTheRest(page: Page) {
  const flowId = new URL(page.url()).pathname.split('/').pop();
  for (;;) {
    const flow = (await (await page.request.get(`/api/payment-flows/${flowId}`)).json()).flow;
    const open = flow.stages
      .flatMap((stage: { tasks: { name: string; status: string }[] }) => stage.tasks)
      .find((task: { status: string }) => task.status === 'pending' || task.status === 'in_progress');
    if (!open) return;
    await complete(page, open.name);
  }
}

/** The apartment's row on /pagos, found by the search (the beginning of the apartment number). */
async function paymentRow(page: Page, apartment: string) {
  await page.goto(`/pagos?q=${encodeURIComponent(apartment)}`);
  const row = page.getByRole('row').filter({ hasText: apartment });
  await expect(row).toHaveCount(1);
  return row;
}

/** 'dd/mm/aaaa' of today in Santiago, as the screens show dates. */
function santiagoToday(): string {
  const parts = new Intl.DateTimeFormat('es-CL', {
    timeZone: 'America/Santiago',
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
  }).formatToParts(new Date());
  const part = (type: string) => parts.find((candidate) => candidate.type === type)!.value;
  return `${part('day')}/${part('month')}/${part('year')}`;
}

test.describe('pagos', () => {
  test('una comisión en dos pagos del 50 %: el primer flujo con su rama paralela, el segundo pago, y ambos completados', async ({
    page,
  }) => {
    test.setTimeout(240_000);
    await page.goto('/pagos');
    await expect(page.getByRole('heading', { name: 'Pagos', exact: true })).toBeVisible();
    const reservation = await apiReservation(page.request, new URL(page.url()).origin, {
      firstName: 'Rosario',
      lastName: uniqueText('Pizarro'),
      prefix: 'P',
      commission: { commissionAmount: '119', numberOfPayments: 2, firstPaymentPercentage: 50 },
    });

    // The row: the commission gross and net with its split, both payments pending.
    let row = await paymentRow(page, reservation.apartment);
    await expect(row).toContainText(reservation.number);
    await expect(row).toContainText('Edificio Los Aromos');
    await expect(row).toContainText('UF 119,00');
    await expect(row).toContainText('Neta UF 100,00');
    await expect(row).toContainText('2 pagos: 50,00 % / 50,00 %');
    await expect(row.getByLabel('Pago 1: Pendiente')).toBeVisible();
    await expect(row.getByLabel('Pago 2: Pendiente')).toBeVisible();
    await expect(row.getByRole('button', { name: 'Crear Segundo Pago' })).toHaveCount(0);

    // A row click opens the first payment flow, created pending: nothing can change yet.
    await row.getByRole('cell', { name: reservation.apartment }).click();
    await expect(page).toHaveURL(/\/pagos\/flujo\/[0-9a-f-]{36}$/);
    await expect(
      page.getByRole('heading', { name: `Flujo de Pago N°\u00a0${reservation.number}` }),
    ).toBeVisible();
    await expect(page.getByTestId('flow-status')).toHaveText('Pendiente');
    await expect(page.getByTestId('payment-type')).toContainText('Primer pago (50,00 %)');
    await expect(status(page, 'Solicitud Liquidación')).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Marcar En Riesgo' })).toHaveCount(0);

    // 'Proceder con Pago', confirmed (it cannot be undone): the flow starts and its first task opens.
    await proceedWithPayment(page);
    await expect(page.getByTestId('flow-status')).toHaveText('En Proceso');
    await expect(page.getByRole('button', { name: 'Proceder con Pago' })).toHaveCount(0);
    await expect(page.getByTestId('flow-started')).toContainText(santiagoToday());
    await expect(status(page, 'Solicitud Liquidación')).toHaveValue('Pendiente');
    await expect(status(page, 'Solicitud a Jefe Inversiones')).toHaveValue('Bloqueada');
    await expect(taskCard(page, 'Solicitud a Jefe Inversiones').getByTestId('task-waits-for')).toHaveText(
      'Espera: Solicitud Liquidación',
    );

    // At risk, only while in progress: the reason is required, shown, and cleared when unchecked.
    await page.getByRole('button', { name: 'Marcar En Riesgo' }).click();
    const risk = page.getByRole('dialog', { name: 'Marcar En Riesgo' });
    await risk.getByRole('button', { name: 'Guardar' }).click();
    await expect(risk.getByText('Ingrese el motivo del riesgo')).toBeVisible();
    await risk.getByLabel('Motivo del Riesgo').fill('El broker no ha enviado la factura');
    await risk.getByRole('button', { name: 'Guardar' }).click();
    await expect(risk).toBeHidden();
    await expect(page.getByTestId('at-risk-badge')).toHaveText('En Riesgo');
    await expect(page.getByTestId('at-risk-reason')).toHaveText('El broker no ha enviado la factura');
    await page.getByRole('button', { name: 'Editar Estado Riesgo' }).click();
    const editRisk = page.getByRole('dialog', { name: 'Editar Estado Riesgo' });
    await editRisk.getByLabel('Comisión en riesgo').uncheck();
    await editRisk.getByRole('button', { name: 'Guardar' }).click();
    await expect(editRisk).toBeHidden();
    await expect(page.getByTestId('at-risk-badge')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Marcar En Riesgo' })).toBeVisible();

    await complete(page, 'Solicitud Liquidación');
    await complete(page, 'Solicitud a Jefe Inversiones');
    await complete(page, 'VB Jefe Inversiones');
    await expect(page.getByTestId('current-stage')).toHaveText('Aprobación Gerente Comercial');

    // The parallel branch: 'Solicitud Operaciones' opens after 'VB Jefe Inversiones' while the
    // Gerente Comercial branch is still open; the operations branch is done first.
    await expect(status(page, 'Solicitud Gerente Comercial')).toHaveValue('Pendiente');
    await expect(status(page, 'Solicitud Operaciones')).toHaveValue('Pendiente');
    await complete(page, 'Solicitud Operaciones');
    await complete(page, 'VB Operaciones');
    await complete(page, 'Solicitud Control de Gestión');
    await complete(page, 'VB Control de Gestión');
    await expect(status(page, 'VB Gerente Comercial')).toHaveValue('Bloqueada');
    await expect(status(page, 'Generación de OC')).toHaveValue('Bloqueada');
    await expect(page.getByTestId('current-stage')).toHaveText('Aprobación Gerente Comercial');

    // The commercial branch closes, and the purchase order (waiting for both) opens.
    await complete(page, 'Solicitud Gerente Comercial');
    await complete(page, 'VB Gerente Comercial');
    await expect(status(page, 'Generación de OC')).toHaveValue('Pendiente');
    // Then the purchase order, the invoice and the payment, one after another.
    await completeTheRest(page);
    await expect(page.getByTestId('flow-status')).toHaveText('Completado');
    await expect(page.getByTestId('flow-progress')).toHaveText('100 %');
    await expect(page.getByTestId('flow-completed')).toContainText(santiagoToday());
    await expect(page.getByRole('button', { name: 'Crear Segundo Pago' })).toBeVisible();

    // Pago 1 'Completado'; the second payment may now be created.
    row = await paymentRow(page, reservation.apartment);
    await expect(row.getByLabel('Pago 1: Completado')).toBeVisible();
    await expect(row.getByLabel('Pago 2: Pendiente')).toBeVisible();

    // The commission shows payment date 1, set by the flow and read-only.
    await row.getByRole('link', { name: `Editar comisión de la reserva ${reservation.number}` }).click();
    await expect(page).toHaveURL(`/pagos/${reservation.reservationId}`);
    await expect(page.getByRole('heading', { name: 'Editar Comisión' })).toBeVisible();
    const payment1 = page.getByLabel('Fecha de pago 1');
    await expect(payment1).toHaveValue(santiagoToday());
    await expect(payment1).toBeDisabled();
    await expect(page.getByText('La registra el flujo del primer pago')).toBeVisible();
    await expect(page.getByLabel('Fecha de pago 2')).toBeEnabled();
    await page.getByRole('link', { name: 'Volver a Pagos' }).click();
    await expect(page).toHaveURL(/\/pagos$/);

    // 'Crear Segundo Pago' from the list: the second flow, pending, then started and completed.
    row = await paymentRow(page, reservation.apartment);
    await row.getByRole('button', { name: 'Crear Segundo Pago' }).click();
    await expect(
      page.getByRole('heading', { name: `Segundo Pago N°\u00a0${reservation.number}` }),
    ).toBeVisible();
    await expect(page.getByTestId('flow-status')).toHaveText('Pendiente');
    await expect(page.getByTestId('payment-type')).toContainText('Segundo pago (50,00 %)');
    await proceedWithPayment(page);
    await expect(page.getByTestId('flow-status')).toHaveText('En Proceso');
    await completeTheRest(page);
    await expect(page.getByTestId('flow-status')).toHaveText('Completado');
    await expect(page.getByRole('button', { name: 'Crear Segundo Pago' })).toHaveCount(0);

    row = await paymentRow(page, reservation.apartment);
    await expect(row.getByLabel('Pago 1: Completado')).toBeVisible();
    await expect(row.getByLabel('Pago 2: Completado')).toBeVisible();

    // Without a flow's id the address leads back to the list.
    await page.goto('/pagos/flujo');
    await expect(page).toHaveURL(/\/pagos$/);
    await expect(row.getByRole('button', { name: 'Crear Segundo Pago' })).toHaveCount(0);
  });

  test('resciliar una reserva con la comisión pagada: la multa, la reserva resciliada y sus tareas fuera de los pendientes', async ({
    page,
    browser,
  }) => {
    test.setTimeout(180_000);
    await page.goto('/pagos');
    const origin = new URL(page.url()).origin;
    const gestora = await newStaffUser(page, browser, origin);
    try {
      // Paid: payment 1 of a two-payment 50 % commission is dated. She sells it (the COF tasks are hers).
      const reservation = await apiReservation(page.request, origin, {
        firstName: 'Rosario',
        lastName: uniqueText('Pizarro'),
        prefix: 'P',
        sellerId: gestora.id,
        commission: {
          commissionAmount: '120',
          numberOfPayments: 2,
          firstPaymentPercentage: 50,
          payment1Date: '2026-10-01',
        },
      });

      // From the sale flow, the payment icon creates the first payment flow; it starts, and its
      // first task is given to her.
      await page.goto(`/flujo-reservas/${reservation.saleFlowId}`);
      await page.getByRole('button', { name: 'Flujo de pago' }).click();
      await expect(
        page.getByRole('heading', { name: `Flujo de Pago N°\u00a0${reservation.number}` }),
      ).toBeVisible();
      await proceedWithPayment(page);
      await expect(page.getByTestId('flow-status')).toHaveText('En Proceso');
      await taskCard(page, 'Solicitud Liquidación')
        .getByRole('button', { name: 'Asignar responsable a Solicitud Liquidación' })
        .click();
      const assign = page.getByRole('dialog', { name: 'Asignar responsable' });
      await assign.getByLabel('Buscar usuario').fill(gestora.name);
      await assign.getByRole('checkbox', { name: gestora.name }).click();
      await assign.getByRole('button', { name: 'Guardar' }).click();
      await expect(assign).toBeHidden();
      await expect(taskCard(page, 'Solicitud Liquidación').getByTestId('task-assignee')).toContainText(
        gestora.name,
      );

      // Her pending tasks: the three COF tasks of the sale flow and the payment task.
      await gestora.page.reload();
      await expect(gestora.page.getByTestId('bell-badge')).toHaveText('4');
      // Her notifications list them, by stage: the sale flow's Reserva, then the payment's first stage.
      await gestora.page.goto('/notificaciones');
      const groups = gestora.page.getByTestId('stage-group');
      await expect(groups).toHaveCount(2);
      await expect(groups.nth(0)).toHaveAttribute('data-stage', 'Reserva');
      await expect(groups.nth(0).getByTestId('task-card')).toHaveCount(3);
      await expect(groups.nth(1)).toHaveAttribute('data-stage', 'Solicitud Liquidación');
      await expect(groups.nth(1).getByTestId('task-card')).toContainText(reservation.number);

      // The wizard, from the sale flow's 'Resciliar Reserva'.
      await page.getByRole('link', { name: 'Flujo de reserva' }).click();
      await expect(
        page.getByRole('heading', { name: `Flujo de Reserva N°\u00a0${reservation.number}` }),
      ).toBeVisible();
      await page.getByRole('button', { name: 'Resciliar Reserva' }).click();
      const wizard = page.getByRole('dialog', { name: `Resciliar Reserva N°\u00a0${reservation.number}` });
      await wizard.getByRole('button', { name: 'Siguiente' }).click();
      await expect(wizard.getByText('Debe ingresar un motivo para la resciliación')).toBeVisible();
      await wizard.getByLabel('Motivo de la resciliación').fill('El cliente desiste de la compra');
      await wizard.getByRole('button', { name: 'Siguiente' }).click();
      await expect(wizard.getByText('Esta acción es irreversible')).toBeVisible();
      await wizard.getByLabel('Aplicar multa por comisión pagada (UF 60,00)').check();
      const confirmation = wizard.getByLabel(/Para confirmar, escriba CONFIRMAR o CONFIRMACIÓN/);
      await confirmation.fill('confirmar');
      await wizard.getByRole('button', { name: 'Resciliar Reserva' }).click();
      await expect(
        wizard.getByText('Debe confirmar la resciliación escribiendo "CONFIRMAR" o "CONFIRMACIÓN"'),
      ).toBeVisible();
      await confirmation.fill('CONFIRMAR');
      await wizard.getByRole('button', { name: 'Resciliar Reserva' }).click();
      await expect(wizard).toBeHidden();

      // The sale flow: rescinded, with its reason; no second rescission offered.
      await expect(page.getByText('Resciliada', { exact: true })).toBeVisible();
      await expect(page.getByRole('region', { name: 'Reserva resciliada' })).toContainText(
        'El cliente desiste de la compra',
      );
      await expect(page.getByRole('button', { name: 'Resciliar Reserva' })).toHaveCount(0);

      // The penalty on the commission: 50 % of UF 120,00 (payment 1 dated).
      await page.goto(`/pagos/${reservation.reservationId}`);
      await expect(page.getByTestId('penalty-amount')).toHaveText('UF 60,00');

      // The list marks it; the payment flow is cancelled.
      const row = await paymentRow(page, reservation.apartment);
      await expect(row).toContainText('Resciliada');
      await row.getByRole('cell', { name: reservation.apartment }).click();
      await expect(page.getByTestId('flow-status')).toHaveText('Cancelado');

      // Her tasks left the pending lists: her notifications count none (the bell shows no badge).
      const counted = gestora.page.waitForResponse('**/api/notifications/count');
      await gestora.page.reload();
      expect(await (await counted).json()).toEqual({ count: 0, tasks: 0, mentions: 0, dataRequests: 0 });
      await expect(gestora.page.getByRole('link', { name: 'Notificaciones', exact: true })).toBeVisible();
      await expect(gestora.page.getByTestId('bell-badge')).toHaveCount(0);
      // And her list is empty.
      await gestora.page.goto('/notificaciones');
      await expect(gestora.page.getByText('No tiene tareas pendientes')).toBeVisible();
      await expect(gestora.page.getByTestId('task-card')).toHaveCount(0);
    } finally {
      await gestora.close();
    }
  });
});
