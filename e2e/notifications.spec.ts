import { type APIRequestContext, expect, test } from '@playwright/test';
import { apiReservation, newStaffUser, uniqueText } from './fixtures';

// Issue 14: the task inboxes ('Mis Tareas Pendientes' of /notificaciones and /seguimiento) and the
// bell that updates itself through the tab's live stream.

/** A task row of a flow, by name, as the flow's screen reads it. */
async function taskId(
  request: APIRequestContext,
  base: string,
  flowId: string,
  name: string,
): Promise<string> {
  const response = await request.get(`${base}/${flowId}`);
  expect(response.status(), await response.text()).toBe(200);
  const { flow } = (await response.json()) as {
    flow: { stages: { tasks: { id: string; name: string }[] }[] };
  };
  const task = flow.stages.flatMap((stage) => stage.tasks).find((candidate) => candidate.name === name);
  if (!task) throw new Error(`no task ${name} in ${flowId}`);
  return task.id;
}

test.describe('bandejas de tareas', () => {
  test('Mis Tareas Pendientes: por etapa, cada tarea abre su flujo, y la campana sube sin recargar cuando se le asigna otra', async ({
    page,
    browser,
  }) => {
    test.setTimeout(180_000);
    await page.goto('/dashboard');
    const origin = new URL(page.url()).origin;
    const headers = { origin };
    const nora = await newStaffUser(page, browser, origin, {
      firstName: 'Nora',
      lastName: 'Bandeja',
      position: 'Ejecutiva Comercial',
      userType: 'KAM',
    });
    const bruno = await newStaffUser(page, browser, origin, {
      firstName: 'Bruno',
      lastName: 'Bandeja',
      position: 'Analista de Pagos',
      userType: 'Gestor de Pagos',
    });
    try {
      // Nora sells a reservation (the three COF tasks of Reserva are hers) and is given the first
      // task of a payment flow; Bruno is given a Reparos task of the same sale flow.
      const sale = await apiReservation(page.request, origin, {
        firstName: 'Inés',
        lastName: uniqueText('Bandeja'),
        prefix: 'N',
        sellerId: nora.id,
      });
      const paid = await apiReservation(page.request, origin, {
        firstName: 'Olga',
        lastName: uniqueText('Bandeja'),
        prefix: 'N',
        commission: { commissionAmount: '119', numberOfPayments: 1, firstPaymentPercentage: 100 },
      });
      const opened = await page.request.post(`/api/payments/${paid.reservationId}/first-flow`, { headers });
      expect(opened.status(), await opened.text()).toBeLessThan(300);
      const paymentFlowId = (await opened.json()).flowId as string;
      const started = await page.request.post(`/api/payment-flows/${paymentFlowId}/start`, { headers });
      expect(started.status(), await started.text()).toBe(200);
      const assign = async (base: string, flowId: string, task: string, userId: string) => {
        const id = await taskId(page.request, base, flowId, task);
        const response = await page.request.post(`${base}/${flowId}/tasks/${id}/assignees`, {
          headers,
          data: { userId },
        });
        expect(response.status(), await response.text()).toBe(200);
      };
      await assign('/api/payment-flows', paymentFlowId, 'Solicitud Liquidación', nora.id);
      await assign('/api/sale-flows', sale.saleFlowId, 'REPARO COMERCIAL', bruno.id);

      // Her list: Reserva (the sale flow's three), then Solicitud Liquidación (the payment's).
      const her = nora.page;
      await her.goto('/notificaciones');
      await expect(her.getByRole('heading', { name: 'Mis Tareas Pendientes' })).toBeVisible();
      const groups = her.getByTestId('stage-group');
      await expect(groups).toHaveCount(2);
      await expect(groups.nth(0)).toHaveAttribute('data-stage', 'Reserva');
      await expect(groups.nth(0).getByRole('heading', { name: 'Reserva' })).toBeVisible();
      await expect(groups.nth(0)).toContainText('3 tareas');
      await expect(groups.nth(1)).toHaveAttribute('data-stage', 'Solicitud Liquidación');
      const saleCard = groups.nth(0).getByTestId('task-card').filter({ hasText: 'COF PENDIENTE FIRMA' });
      await expect(saleCard).toContainText(sale.number);
      await expect(saleCard).toContainText('Edificio Los Aromos');
      await expect(saleCard).toContainText(sale.apartment);
      await expect(saleCard).toContainText('Pendiente');
      await expect(saleCard).toContainText('Sin plazo');
      const paymentCard = groups.nth(1).getByTestId('task-card');
      await expect(paymentCard).toContainText('Solicitud Liquidación');
      await expect(paymentCard).toContainText(paid.number);
      await expect(paymentCard).toContainText('1 día');
      await expect(her.getByTestId('bell-badge')).toHaveText('4');

      // A sale task opens its reservation flow; a payment task its payment flow.
      await saleCard.click();
      await expect(her).toHaveURL(new RegExp(`/flujo-reservas/${sale.saleFlowId}$`));
      await expect(
        her.getByRole('heading', { name: `Flujo de Reserva N°\u00a0${sale.number}` }),
      ).toBeVisible();
      await her.goBack();
      await her.getByTestId('stage-group').nth(1).getByTestId('task-card').click();
      await expect(her).toHaveURL(new RegExp(`/pagos/flujo/${paymentFlowId}$`));
      await her.goto('/notificaciones');
      await expect(her.getByTestId('stage-group')).toHaveCount(2);

      // The administrator, in another browser, assigns her a Reparos task: her bell goes up and her
      // open list shows it first, without a reload.
      await expect(her.getByTestId('bell-badge')).toHaveText('4');
      await assign('/api/sale-flows', sale.saleFlowId, 'REPARO BANCO', nora.id);
      await expect(her.getByTestId('bell-badge')).toHaveText('5');
      await expect(her.getByTestId('stage-group').first()).toHaveAttribute('data-stage', 'Reparos');
      await expect(her.getByTestId('stage-group').first()).toContainText('REPARO BANCO');

      // Seguimiento, as the administrator: everyone's, then Nora's only, in the fixed stage order.
      await page.goto('/seguimiento');
      await expect(page.getByRole('heading', { name: 'Mis Tareas Pendientes' })).toBeVisible();
      await expect(page.getByRole('combobox', { name: 'Usuario' })).toHaveValue('Todos los usuarios');
      await page.getByRole('combobox', { name: 'Usuario' }).click();
      await page.getByRole('option', { name: new RegExp(nora.name) }).click();
      await expect(page).toHaveURL(new RegExp(`usuario=${nora.id}`));
      const followed = page.getByTestId('stage-group');
      await expect(followed).toHaveCount(3);
      await expect(followed.nth(0)).toHaveAttribute('data-stage', 'Reparos');
      await expect(followed.nth(1)).toHaveAttribute('data-stage', 'Reserva');
      await expect(followed.nth(2)).toHaveAttribute('data-stage', 'Solicitud Liquidación');
      const cards = page.getByTestId('task-card');
      await expect(cards).toHaveCount(5);
      for (const card of await cards.all()) await expect(card).toContainText(nora.name);
      await expect(cards.filter({ hasText: bruno.name })).toHaveCount(0);
      // Bruno's: his Reparos task only.
      await page.getByRole('combobox', { name: 'Usuario' }).click();
      await page.getByRole('option', { name: new RegExp(bruno.name) }).click();
      await expect(page.getByTestId('task-card')).toHaveCount(1);
      await expect(page.getByTestId('task-card')).toContainText('REPARO COMERCIAL');
      await expect(page.getByTestId('task-card')).toContainText(bruno.name);

      // Someone else who opens /seguimiento sees their own tasks, with no user filter (and has no
      // Seguimiento in the menu).
      await her.goto('/seguimiento');
      await expect(her.getByRole('heading', { name: 'Mis Tareas Pendientes' })).toBeVisible();
      await expect(her.getByTestId('task-card')).toHaveCount(5);
      for (const card of await her.getByTestId('task-card').all())
        await expect(card).toContainText(nora.name);
      await expect(her.getByRole('combobox', { name: 'Usuario' })).toHaveCount(0);
      await expect(her.getByRole('link', { name: 'Seguimiento' })).toHaveCount(0);
    } finally {
      await nora.close();
      await bruno.close();
    }
  });

  test('sin tareas: los textos vacíos de cada bandeja', async ({ page, browser }) => {
    await page.goto('/dashboard');
    const origin = new URL(page.url()).origin;
    const nadie = await newStaffUser(page, browser, origin, { firstName: 'Nadia', lastName: 'Vacía' });
    try {
      await nadie.page.goto('/notificaciones');
      await expect(nadie.page.getByText('No tiene tareas pendientes')).toBeVisible();
      await nadie.page.goto('/seguimiento');
      await expect(nadie.page.getByText('No hay tareas pendientes')).toBeVisible();
      await expect(nadie.page.getByTestId('bell-badge')).toHaveCount(0);
    } finally {
      await nadie.close();
    }
  });
});
