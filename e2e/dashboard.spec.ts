import { type APIRequestContext, expect, test } from '@playwright/test';

// These journeys need data: at least one reservation with a reservation flow, and commission
// payments (the demo dataset the e2e server loads). They read what to look for from the API, so
// they work on any such database.

interface ApartmentHit {
  apartmentNumber: string;
  reservationNumber: string;
  reservationFlowId: string | null;
}

/** A reservation with a flow and an apartment number long enough to search for (3+ characters). */
async function apartmentWithFlow(request: APIRequestContext): Promise<ApartmentHit> {
  const dashboard = await (await request.get('/api/dashboard')).json();
  const seeds: string[] = dashboard.recentReservations.map((r: ApartmentHit) => r.apartmentNumber);
  for (const q of [...seeds, '101', '201', '301', '401', '501', '1001', '102', '202']) {
    if (q.trim().length < 3) continue;
    const results = await (await request.get(`/api/search?q=${encodeURIComponent(q)}`)).json();
    const hit = (results.reservationsByApartment as ApartmentHit[]).find(
      (r) => r.reservationFlowId && r.apartmentNumber.trim().length >= 3,
    );
    if (hit) return hit;
  }
  throw new Error('La base de datos no tiene una reserva con flujo que se pueda buscar por departamento');
}

test.describe('dashboard', () => {
  test('muestra las tarjetas, los gráficos, los proyectos, los brokers y los últimos movimientos', async ({
    page,
  }) => {
    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { name: 'Dashboard', level: 2 })).toBeVisible();

    const cards = [
      ['Total Reservas', 'vs mes anterior'],
      ['Total Clientes', 'activos en el sistema'],
      ['Total Proyectos', 'en comercialización'],
      ['Total Brokers', 'registrados'],
    ] as const;
    for (const [title, caption] of cards) {
      const card = page.getByRole('region', { name: title });
      await expect(card.getByText(caption)).toBeVisible();
      await expect(card.getByTestId('stat-value')).toHaveText(/^[1-9][\d.]*$/);
    }
    await expect(page.getByTestId('month-change')).toHaveText(/^\d+ %$/);

    for (const chart of ['monthly-reservations', 'monthly-commissions']) {
      await expect(page.getByTestId(chart).getByRole('listitem')).toHaveCount(6);
    }
    // Spanish month labels ('ene 2026').
    await expect(page.getByTestId('monthly-reservations').getByRole('listitem').last()).toHaveAccessibleName(
      /^(ene|feb|mar|abr|may|jun|jul|ago|sept|oct|nov|dic) \d{4}: \d+ reservas$/,
    );
    await expect(
      page
        .getByTestId('project-stats')
        .getByText(/disponibles?$|no registrado$/)
        .first(),
    ).toBeVisible();
    await expect(page.getByTestId('top-brokers').getByRole('listitem').first()).toContainText('UF');
    await expect(page.getByTestId('recent-reservations').getByRole('row')).not.toHaveCount(0);
    await expect(page.getByTestId('recent-reservations').getByRole('row').nth(1)).toContainText('UF');

    // Each payment opens its commission flow.
    const payments = page.getByTestId('recent-payment');
    await expect(payments.first()).toBeVisible();
    await expect(payments.first().getByTestId('payment-status')).not.toBeEmpty();
    await payments.first().getByRole('cell').nth(2).click();
    await expect(page).toHaveURL(/\/pagos\/flujo\/[0-9a-f-]{36}$/);
  });

  test('la búsqueda global por número de departamento abre el flujo de la reserva', async ({ page }) => {
    const target = await apartmentWithFlow(page.request);
    await page.goto('/dashboard');
    const search = page.getByRole('combobox', { name: 'Búsqueda global' });
    await expect(search).toHaveAttribute('placeholder', 'Buscar cliente, reserva o depto...');

    // Ctrl+K focuses the search box.
    await page.getByRole('heading', { name: 'Dashboard', level: 2 }).click();
    await page.keyboard.press('Control+k');
    await expect(search).toBeFocused();

    await search.fill(target.apartmentNumber);
    const option = page
      .getByRole('group', { name: 'Departamentos' })
      .getByRole('option')
      .filter({ hasText: `Reserva ${target.reservationNumber}` });
    await option.click();
    await expect(page).toHaveURL(new RegExp(`/flujo-reservas/${target.reservationFlowId}$`));
    await expect(search).toHaveValue('');
  });

  test('en un teléfono la búsqueda global se abre desde la lupa y lleva al resultado', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const target = await apartmentWithFlow(page.request);
    await page.goto('/dashboard');
    const search = page.getByRole('combobox', { name: 'Búsqueda global' });
    await expect(search).toBeHidden();
    await page.getByRole('button', { name: 'Buscar' }).click();
    await expect(search).toBeFocused();
    await search.fill(target.apartmentNumber);
    const option = page
      .getByRole('group', { name: 'Departamentos' })
      .getByRole('option')
      .filter({ hasText: `Reserva ${target.reservationNumber}` });
    await option.click();
    await expect(page).toHaveURL(new RegExp(`/flujo-reservas/${target.reservationFlowId}$`));
    // Choosing a result gives the bar back.
    await expect(search).toBeHidden();
    await expect(page.getByRole('link', { name: /Inmoflujo, ir al inicio/ })).toBeVisible();
  });

  test('un error al cargar el dashboard se muestra en un recuadro rojo arriba', async ({ page }) => {
    await page.route('**/api/dashboard', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({
          error: { code: 'INTERNAL', message: 'Ocurrió un error inesperado. Intente nuevamente.' },
        }),
      }),
    );
    await page.goto('/dashboard');
    const alert = page.getByRole('alert').filter({ hasText: 'No se pudo cargar el dashboard' });
    await expect(alert).toContainText('Ocurrió un error inesperado. Intente nuevamente.', {
      timeout: 15_000,
    });
    await expect(page.getByRole('heading', { name: 'Dashboard', level: 2 })).toBeVisible();
  });
});
