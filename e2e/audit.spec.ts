import { readFile } from 'node:fs/promises';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { formatDate, santiagoDateOf } from '../src/shared/format';
import { severeAxeViolations } from './axe';
import { ACCOUNTS, apiReservation, signIn, uniqueText } from './fixtures';

// Issue 17: the audit trail as users read it — 'Historial' on a reservation and on its sale flow,
// Configuración → Auditoría for administrators only.

const TASK = 'COF PENDIENTE GENERACIÓN';

/** Opens the screen's 'Historial' and answers its drawer. */
async function openHistory(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Historial', exact: true }).click();
  const drawer = page.getByRole('dialog', { name: 'Historial' });
  await expect(drawer).toBeVisible();
  await expect(drawer.getByTestId('history-count')).toBeVisible();
  return drawer;
}

/** axe on the screen with the drawer open: no violation of impact serious or critical. */
async function expectNoSevereViolations(page: Page, label: string) {
  const severe = (await severeAxeViolations(page)).map(
    (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
  );
  expect(severe, `${label}: serious or critical axe violations`).toEqual([]);
}

test.describe('auditoría', () => {
  test('el historial de la reserva y de su flujo muestra lo que cambió la administradora, y la auditoría lo encuentra por usuario', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto('/reservas');
    const origin = new URL(page.url()).origin;
    const reservation = await apiReservation(page.request, origin, {
      firstName: 'Olga',
      lastName: uniqueText('Historial'),
      prefix: 'H',
      commission: { commissionAmount: '120', numberOfPayments: 1, firstPaymentPercentage: 100 },
    });

    // The commission amount, from 120 to 135,50, on 'Editar Comisión'.
    await page.goto(`/pagos/${reservation.reservationId}`);
    await expect(page.getByRole('heading', { name: 'Editar Comisión' })).toBeVisible();
    await page.getByLabel('Monto de la comisión').fill('135,5');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await expect(page).toHaveURL(/\/pagos$/);

    // A task's start, moved to yesterday 09:30 (Santiago) on the sale flow.
    const yesterday = formatDate(santiagoDateOf(new Date(Date.now() - 24 * 60 * 60 * 1000)));
    await page.goto(`/flujo-reservas/${reservation.saleFlowId}`);
    await page.getByRole('button', { name: `Editar fechas de ${TASK}` }).click();
    const dates = page.getByRole('dialog', { name: 'Editar fechas de la tarea' });
    await dates.getByLabel('Inicio (fecha)').fill(yesterday);
    await dates.getByLabel('Inicio (hora)').fill('09:30');
    await dates.getByRole('button', { name: 'Guardar' }).click();
    await expect(dates).toBeHidden();

    // The flow's 'Historial': the newest entry is that change, with her name and the time it was made.
    let drawer = await openHistory(page);
    const taskChange = drawer
      .getByTestId('history-entry')
      .filter({ hasText: `a ${yesterday} 09:30 en la tarea ${TASK}` });
    await expect(taskChange).toHaveCount(1);
    await expect(taskChange).toContainText(
      /^Alicia Administradora cambió Inicio de \d\d\/\d\d\/\d{4} \d\d:\d\d a /,
    );
    await expect(taskChange).toContainText(` · ${formatDate(santiagoDateOf(new Date()))} `);
    // The flow began with its thirty-odd tasks: more than a page, the next one appended.
    const entries = drawer.getByTestId('history-entry');
    await expect(entries).toHaveCount(20);
    await drawer.getByRole('button', { name: 'Cargar más' }).click();
    await expect.poll(() => entries.count()).toBeGreaterThan(20);
    await drawer.getByRole('button', { name: 'Cerrar historial' }).click();
    await expect(drawer).toBeHidden();

    // The reservation's 'Historial' holds its commission's change.
    await page.goto(`/reservas/editar/${reservation.reservationId}`);
    await expect(page.getByRole('heading', { name: 'Editar Reserva' })).toBeVisible();
    drawer = await openHistory(page);
    const commissionChange = drawer
      .getByTestId('history-entry')
      .filter({ hasText: 'cambió Monto comisión de UF 120,00 a UF 135,50' });
    await expect(commissionChange).toHaveCount(1);
    await expect(commissionChange).toContainText(/^Alicia Administradora cambió Monto comisión/);
    await expect(commissionChange).toContainText('en la comisión del broker');
    // Its creation, with what it held under 'Ver detalle'.
    const created = drawer
      .getByTestId('history-entry')
      .filter({ hasText: 'Alicia Administradora creó la reserva' });
    await expect(created).toHaveCount(1);
    await created.getByRole('button', { name: 'Ver detalle' }).click();
    await expect(
      created.getByRole('listitem').filter({ hasText: `N° Reserva: ${reservation.number}` }),
    ).toBeVisible();
    await expectNoSevereViolations(page, 'Historial (escritorio)');
    await page.setViewportSize({ width: 390, height: 844 });
    // The whole width on a phone.
    await expect
      .poll(async () => Math.round((await drawer.boundingBox())?.width ?? 0))
      .toBeGreaterThanOrEqual(388);
    await expectNoSevereViolations(page, 'Historial (teléfono)');
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();
    await page.setViewportSize({ width: 1440, height: 900 });

    // Configuración → Auditoría: her changes, by user, kind of record and a value.
    await page.goto('/configuracion/auditoria');
    await expect(page.getByRole('tab', { name: 'Auditoría' })).toHaveAttribute('aria-selected', 'true');
    await page.getByRole('combobox', { name: 'Usuario' }).click();
    await page.getByRole('combobox', { name: 'Usuario' }).fill('Alicia');
    await page.getByRole('option', { name: /^Alicia Administradora/ }).click();
    await expect(page).toHaveURL(/[?&]usuario=[0-9a-f-]{36}/);
    await page.getByRole('combobox', { name: 'Registro' }).click();
    await page.getByRole('option', { name: 'Reservas', exact: true }).click();
    const search = page.getByRole('searchbox', { name: 'Buscar en los valores' });
    await search.fill('135,50');
    await search.press('Enter');
    await expect(page).toHaveURL(/registro=reservations/);
    await expect(page).toHaveURL(/q=135%2C50/);
    await page.getByLabel('Filas por página').selectOption('100');
    const table = page.getByRole('table', { name: 'Auditoría' });
    const commissionRow = table
      .getByRole('row')
      .filter({ hasText: `Reserva N° ${reservation.number}` })
      .filter({ hasText: 'Monto comisión: UF 120,00 → UF 135,50' });
    await expect(commissionRow).toHaveCount(1);
    await expect(commissionRow).toContainText('Alicia Administradora');
    await expect(commissionRow).toContainText('cambió Monto comisión de UF 120,00 a UF 135,50');
    await expect(page.getByRole('link', { name: 'Exportar CSV' })).toHaveAttribute(
      'href',
      /^\/api\/audit\/export\?user=[0-9a-f-]{36}&kind=reservations&search=135%2C50&format=csv$/,
    );
    // The CSV holds the same filtered rows: her change of this reservation's commission among them.
    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Exportar CSV' }).click(),
    ]);
    expect(csv.suggestedFilename()).toMatch(/^auditoria_\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = (await readFile((await csv.path())!, 'utf8')).split(/\r?\n/);
    expect(lines[0]).toBe('\ufeffFecha;Hora;Usuario;Tipo de registro;Registro;Acción;Cambios;Solicitud');
    expect(
      lines.filter(
        (line) =>
          line.includes(`Reserva N° ${reservation.number}`) &&
          line.includes('Alicia Administradora') &&
          line.includes('Monto comisión: UF 120,00 → UF 135,50'),
      ),
    ).toHaveLength(1);

    // The flow's change: the flows she changed, the newest first (still 100 a page: the other journeys
    // run beside this one as the same administrator).
    await search.fill('');
    await page.getByRole('combobox', { name: 'Registro' }).click();
    await page.getByRole('option', { name: 'Flujos', exact: true }).click();
    await expect(page).toHaveURL(/registro=flows/);
    await expect(page).not.toHaveURL(/q=/);
    const taskRow = table
      .getByRole('row')
      .filter({ hasText: `Flujo de Venta Regular · Reserva N° ${reservation.number}` })
      .filter({ hasText: `a ${yesterday} 09:30 en la tarea ${TASK}` });
    await expect(taskRow).toHaveCount(1);
    await expect(taskRow).toContainText('Alicia Administradora');
    await taskRow
      .getByRole('link', { name: `Flujo de Venta Regular · Reserva N° ${reservation.number}` })
      .click();
    await expect(page).toHaveURL(`/flujo-reservas/${reservation.saleFlowId}`);
  });

  test('un KAM no ve la pestaña Auditoría y la API se la niega; sí lee el historial', async ({ browser }) => {
    const context = await browser.newContext({
      baseURL: test.info().project.use.baseURL,
      locale: 'es-CL',
      timezoneId: 'America/Santiago',
      storageState: { cookies: [], origins: [] },
    });
    try {
      const page = await context.newPage();
      await signIn(page, ACCOUNTS.kam);
      await page.goto('/configuracion/proyectos');
      await expect(page.getByRole('tab', { name: 'Proyectos' })).toHaveAttribute('aria-selected', 'true');
      await expect(page.getByRole('tab', { name: 'Auditoría' })).toHaveCount(0);
      // A shared link to the tab says why it shows nothing.
      await page.goto('/configuracion/auditoria');
      await expect(page.getByRole('alert')).toHaveText('No tiene permisos para realizar esta acción.');
      await expect(page.getByRole('table', { name: 'Auditoría' })).toHaveCount(0);

      for (const path of ['/api/audit', '/api/audit/users', '/api/audit/export?format=csv']) {
        const answer = await page.request.get(path);
        expect(answer.status(), path).toBe(403);
      }
      const reservations = await page.request.get('/api/reservations?page=1&pageSize=1');
      const reservationId = (await reservations.json()).rows[0].id as string;
      const history = await page.request.get(`/api/audit/history/reservations/${reservationId}`);
      expect(history.status()).toBe(200);
      expect((await history.json()).total).toBeGreaterThan(0);
    } finally {
      await context.close();
    }
  });
});
