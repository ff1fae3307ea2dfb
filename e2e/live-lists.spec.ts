import { type Browser, expect, type Page, test } from '@playwright/test';
import { ADMIN_STATE, apiReservation, newStaffUser, uniqueText } from './fixtures';

// Issue 28 §2: the screens beside the bell stay live. While a payments manager looks at her approvals
// list and at a payment flow, an administrator elsewhere assigns her an approval, takes it back and
// moves the flow on: her screens follow within seconds, with nobody reloading.

const LIVE_TIMEOUT = { timeout: 10_000 };
const EMPTY = 'No hay aprobaciones pendientes asignadas a su usuario';

async function adminPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({
    baseURL: test.info().project.use.baseURL,
    locale: 'es-CL',
    timezoneId: 'America/Santiago',
    storageState: ADMIN_STATE,
  });
  const page = await context.newPage();
  await page.goto('/dashboard');
  return page;
}

test('la lista de aprobaciones y el flujo abierto siguen los cambios de otra persona sin recargar', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const admin = await adminPage(browser);
  const origin = new URL(admin.url()).origin;
  const headers = { origin };
  const manager = await newStaffUser(admin, browser, origin, { firstName: 'Daniela', lastName: 'Viva' });
  const her = manager.page;
  try {
    const reservation = await apiReservation(admin.request, origin, {
      firstName: 'Tomás',
      lastName: uniqueText('Vivar'),
      prefix: 'L',
      commission: { commissionAmount: '90', numberOfPayments: 1, firstPaymentPercentage: 100 },
    });
    const flowId = (
      await (
        await admin.request.post(`/api/payments/${reservation.reservationId}/first-flow`, { headers })
      ).json()
    ).flowId as string;
    expect((await admin.request.post(`/api/payment-flows/${flowId}/start`, { headers })).ok()).toBe(true);
    const flow = (await (await admin.request.get(`/api/payment-flows/${flowId}`)).json()).flow as {
      stages: { tasks: { id: string; name: string }[] }[];
    };
    const taskId = (name: string) =>
      flow.stages.flatMap((stage) => stage.tasks).find((task) => task.name === name)!.id;
    for (const name of ['Solicitud Liquidación', 'Solicitud a Jefe Inversiones']) {
      const done = await admin.request.put(`/api/payment-flows/${flowId}/tasks/${taskId(name)}/status`, {
        headers,
        data: { status: 'completed' },
      });
      expect(done.ok(), await done.text()).toBe(true);
    }

    // She has nothing to approve, and her list says so.
    await her.goto('/informes/aprobacion-liquidaciones');
    await expect(her.getByText(EMPTY)).toBeVisible();
    const badge = her.getByTestId('bell-badge');

    // Assigned to her elsewhere: the row arrives, with the bell.
    const vb = taskId('VB Jefe Inversiones');
    const assign = (userId: string) =>
      admin.request.post(`/api/payment-flows/${flowId}/tasks/${vb}/assignees`, { headers, data: { userId } });
    expect((await assign(manager.id)).ok()).toBe(true);
    const row = her.getByRole('checkbox', { name: `Seleccionar reserva ${reservation.number}` });
    await expect(row).toBeVisible(LIVE_TIMEOUT);
    await expect(badge).toBeVisible(LIVE_TIMEOUT);

    // Taken back: the row goes, and the list says it is empty again.
    const adminId = (await (await admin.request.get('/api/auth/me')).json()).user.id as string;
    expect((await assign(adminId)).ok()).toBe(true);
    await expect(row).toHaveCount(0, LIVE_TIMEOUT);
    await expect(her.getByText(EMPTY)).toBeVisible(LIVE_TIMEOUT);

    // The flow's own screen follows a decision made elsewhere.
    await her.goto(`/pagos/flujo/${flowId}`);
    const status = her.getByRole('combobox', { name: 'Estado de VB Jefe Inversiones' });
    await expect(status).toHaveValue('Pendiente');
    const approved = await admin.request.post(`/api/approvals/${vb}/approve`, { headers });
    expect(approved.ok(), await approved.text()).toBe(true);
    await expect(status).toHaveValue('Completada', LIVE_TIMEOUT);
  } finally {
    await her.context().close();
    await admin.context().close();
  }
});
