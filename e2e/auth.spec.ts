import { expect, test } from '@playwright/test';
import { ACCOUNTS, SIGNED_OUT, signIn, uniqueText } from './fixtures';

test.use(SIGNED_OUT);

test.describe('acceso', () => {
  test('un recién llegado se registra, entra al dashboard, cierra sesión y vuelve a entrar', async ({
    page,
  }) => {
    const email = `${uniqueText('nuevo').replace(/\W+/g, '.')}@inmoflujo.test`;
    await page.goto('/');
    await expect(page).toHaveURL(/\/login$/);
    await page.getByRole('link', { name: 'Registrarse' }).click();
    await expect(page).toHaveURL(/\/register$/);

    await page.getByLabel('Nombres').fill('Tomás');
    await page.getByLabel('Apellidos').fill('Fuentes');
    await page.getByLabel('Cargo').fill('Ejecutivo de Ventas');
    await page.getByLabel('Correo Electrónico').fill(email);
    await page.getByLabel('Contraseña').fill('una-clave-segura');
    await page.getByRole('button', { name: 'Registrarse' }).click();

    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByText('Cuenta creada. Ya puede iniciar sesión.')).toBeVisible();
    await signIn(page, { email, password: 'una-clave-segura' });

    const header = page.getByRole('banner');
    await expect(header.getByText('Tomás Fuentes')).toBeVisible();
    await expect(header.getByText('Ejecutivo de Ventas')).toBeVisible();
    await expect(header.getByText('Inmoflujo · Desarrollado por el equipo Inmoflujo')).toBeVisible();

    await header.getByRole('button', { name: 'Cerrar sesión' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/login$/);

    await signIn(page, { email, password: 'una-clave-segura' });
    await expect(header.getByText('Tomás Fuentes')).toBeVisible();
    // Signed in, /login and /register send the user back to the dashboard.
    await page.goto('/register');
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('el registro muestra el mensaje del servidor y no crea nada', async ({ page }) => {
    await page.goto('/register');
    await page.getByLabel('Nombres').fill('Otra');
    await page.getByLabel('Apellidos').fill('Persona');
    await page.getByLabel('Cargo').fill('Analista');
    await page.getByLabel('Correo Electrónico').fill(ACCOUNTS.admin.email);
    await page.getByLabel('Contraseña').fill('una-clave-segura');
    await page.getByRole('button', { name: 'Registrarse' }).click();
    await expect(
      page.getByText('Este correo electrónico ya está registrado. Por favor, use un correo diferente.'),
    ).toBeVisible();
    await expect(page).toHaveURL(/\/register$/);
    // The form keeps what the user typed.
    await expect(page.getByLabel('Nombres')).toHaveValue('Otra');
  });

  test('el registro valida los campos en español antes de enviar', async ({ page }) => {
    await page.goto('/register');
    await page.getByLabel('Correo Electrónico').fill('no-es-correo');
    await page.getByLabel('Contraseña').fill('corta');
    await page.getByRole('button', { name: 'Registrarse' }).click();
    await expect(page.getByText('Los nombres son obligatorios')).toBeVisible();
    await expect(page.getByText('Ingrese un correo electrónico válido')).toBeVisible();
    await expect(page.getByText('La contraseña debe tener al menos 8 caracteres')).toBeVisible();
  });

  test('un inicio de sesión fallido muestra el mensaje del servidor sobre el formulario', async ({
    page,
  }) => {
    await page.goto('/login');
    await page.getByLabel('Correo Electrónico').fill(ACCOUNTS.admin.email);
    await page.getByLabel('Contraseña').fill('clave-equivocada');
    await page.getByRole('button', { name: 'Iniciar Sesión' }).click();
    await expect(
      page.getByRole('alert').filter({ hasText: 'Correo electrónico o contraseña incorrectos.' }),
    ).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
  });
});

test.describe('menú lateral', () => {
  const ORDER = [
    'Clientes',
    // Beyond the spec's menu (issue 59): a quote comes before its reservation.
    'Cotizaciones',
    'Reservas',
    'Flujo Reservas',
    // Beyond the spec's menu (issue 31): what is left to sell, for every user.
    'Disponibilidad',
    'Seguimiento',
    'Aprobaciones',
    'Brokers',
    'Pagos',
    'Informes',
  ];

  test('el administrador ve todas las entradas en orden, con los submenús', async ({ page }) => {
    await signIn(page, ACCOUNTS.admin);
    const menu = page.getByRole('navigation', { name: 'Menú principal' });
    await expect(menu.getByRole('link', { name: 'Clientes' })).toBeVisible();
    const labels = await menu.locator('[data-menu-entry]').allInnerTexts();
    expect(labels.slice(0, ORDER.length)).toEqual(ORDER);
    expect(labels.slice(-2)).toEqual(['Configuración', 'Cerrar Sesión']);

    await menu.getByText('Informes', { exact: true }).click();
    for (const report of [
      'Comisiones',
      'Proyección Comisiones',
      'Ventas',
      'Pagos Brokers',
      'Consolidado Brokers',
    ]) {
      await expect(menu.getByRole('link', { name: report, exact: true })).toBeVisible();
    }
    await menu.getByRole('link', { name: 'Proyección Comisiones' }).click();
    await expect(page).toHaveURL(/\/informes\/proyeccion-comisiones$/);
    await expect(page.getByRole('heading', { name: 'Proyección Comisiones' })).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Mes' })).toBeVisible();

    await menu.getByText('Aprobaciones', { exact: true }).click();
    await menu.getByRole('link', { name: 'Liquidaciones' }).click();
    await expect(page).toHaveURL(/\/informes\/aprobacion-liquidaciones$/);
  });

  test('un usuario que no es administrador no ve Seguimiento ni Aprobaciones', async ({ page }) => {
    await signIn(page, ACCOUNTS.kam);
    const menu = page.getByRole('navigation', { name: 'Menú principal' });
    await expect(menu.getByRole('link', { name: 'Clientes' })).toBeVisible();
    await expect(menu.getByText('Seguimiento')).toHaveCount(0);
    await expect(menu.getByText('Aprobaciones')).toHaveCount(0);
    const labels = await menu.locator('[data-menu-entry]').allInnerTexts();
    expect(labels.slice(0, 8)).toEqual([
      'Clientes',
      'Cotizaciones',
      'Reservas',
      'Flujo Reservas',
      'Disponibilidad',
      'Brokers',
      'Pagos',
      'Informes',
    ]);
  });

  test('en pantallas pequeñas el menú se abre y se cierra con el botón', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    await signIn(page, ACCOUNTS.admin);
    const menu = page.getByRole('navigation', { name: 'Menú principal' });
    await expect(menu).not.toBeInViewport();
    await page.getByRole('button', { name: 'Abrir menú' }).click();
    await expect(menu).toBeInViewport();
    await menu.getByRole('link', { name: 'Brokers' }).click();
    await expect(page).toHaveURL(/\/brokers$/);
    await expect(menu).not.toBeInViewport();
  });
});

test('sin servidor: el banner aparece al instante, los reintentos esperan y la lista se recarga sola', async ({
  page,
}) => {
  test.setTimeout(90_000);
  // The page's timers on Playwright's clock: the outage's 30 s pass in steps, not in real seconds.
  // Between steps the page's probe (a refused request) settles, as it would between real seconds.
  await page.clock.install();
  await signIn(page, ACCOUNTS.admin);
  await page.goto('/reservas');
  await expect(page.getByRole('row').nth(1)).toBeVisible();
  let healthRequests = 0;
  page.on('request', (request) => {
    if (request.url().includes('/api/health')) healthRequests += 1;
  });
  // The server stops answering: every API request is refused, as by a stopped server.
  await page.route('**/api/**', (route) => route.abort('connectionrefused'));
  await page
    .getByRole('navigation', { name: 'Menú principal' })
    .getByRole('link', { name: 'Clientes' })
    .click();
  const banner = page.getByTestId('connection-banner');
  await expect(banner).toContainText('No se pudo conectar con el servidor.', { timeout: 5_000 });
  await expect(banner).toContainText('Intentando reconectar...');
  // A list that could not load says so; it never claims to be empty.
  await expect(page.getByText('No se pudo cargar la lista.')).toBeVisible({ timeout: 10_000 });
  // 30 s of outage: the probes back off (1, 2, 5, 10 s: five probes), no flood.
  for (let second = 0; second < 30; second++) await page.clock.runFor(1_000);
  expect(healthRequests).toBeLessThan(10);
  // The server answers again: the next probe (at most 10 s on) finds it; the banner goes and the
  // list fills by itself.
  await page.unroute('**/api/**');
  await page.clock.runFor(10_000);
  await expect(banner).toHaveCount(0, { timeout: 15_000 });
  await expect(page.getByRole('row').nth(1)).toBeVisible();
  await expect(page.getByText('No se pudo cargar la lista.')).toHaveCount(0);
});

test('una dirección desconocida muestra «Página no encontrada» dentro del marco, con el menú', async ({
  page,
}) => {
  await signIn(page, ACCOUNTS.admin);
  await page.goto('/no-existe');
  await expect(page.getByText('Página no encontrada')).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Menú principal' })).toBeAttached();
  await expect(page.getByText('Ocurrió un error inesperado')).toHaveCount(0);
});

test('solo con el teclado se llega a Informes → Ventas, y el correo tiene el foco al entrar', async ({
  browser,
}) => {
  const page = await browser.newPage({ storageState: { cookies: [], origins: [] } });
  await page.goto('/login');
  await expect(page.getByLabel('Correo Electrónico')).toBeFocused();
  await page.keyboard.type(ACCOUNTS.admin.email);
  await page.keyboard.press('Tab');
  await page.keyboard.type(ACCOUNTS.admin.password);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/dashboard$/);
  const reports = page
    .getByRole('navigation', { name: 'Menú principal' })
    .getByRole('button', { name: 'Informes' });
  // Tab through the page until the parent entry has the focus (it is reachable at all).
  for (let presses = 0; presses < 40; presses++) {
    if (await reports.evaluate((element) => element === document.activeElement)) break;
    await page.keyboard.press('Tab');
  }
  await expect(reports).toBeFocused();
  await page.keyboard.press('Enter');
  const sales = page
    .getByRole('navigation', { name: 'Menú principal' })
    .getByRole('link', { name: 'Ventas', exact: true });
  await expect(sales).toBeVisible();
  for (let presses = 0; presses < 10; presses++) {
    if (await sales.evaluate((element) => element === document.activeElement)) break;
    await page.keyboard.press('Tab');
  }
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/informes\/ventas$/);
  await page.close();
});
