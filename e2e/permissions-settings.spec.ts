import { type Browser, expect, test } from '@playwright/test';
import { ACCOUNTS, signIn } from './fixtures';

// Runs in the 'settings' project (its name ends in settings.spec.ts): after the other journeys, so
// the grant it gives the KAMs for a moment changes nothing they check.

const AUDIT_LABEL = 'Ver y exportar la auditoría de todos los cambios (Configuración → Auditoría)';

async function signedInKam(browser: Browser) {
  const context = await browser.newContext({
    baseURL: test.info().project.use.baseURL,
    locale: 'es-CL',
    timezoneId: 'America/Santiago',
    storageState: { cookies: [], origins: [] },
  });
  const page = await context.newPage();
  await signIn(page, ACCOUNTS.kam);
  return { page, close: () => context.close() };
}

test('Permisos: un administrador otorga la auditoría a los KAM, que la ven al instante; al retirarla desaparece', async ({
  page,
  browser,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/configuracion/permisos');
  const kamSwitch = page.getByRole('switch', { name: `${AUDIT_LABEL} — KAM` });
  await expect(kamSwitch).not.toBeChecked();
  await expect(page.getByRole('switch', { name: `${AUDIT_LABEL} — Administrador` })).toBeChecked();
  // The spec's fixed actions are locked.
  const fixedRow = page.getByRole('row').filter({ hasText: 'Resciliar reservas (irreversible)' });
  await expect(fixedRow.getByText('Fijo por la especificación')).toBeVisible();
  await expect(fixedRow.getByRole('switch', { name: /— KAM/ })).toBeDisabled();

  // The table is long: the switch is brought to the middle, clear of the sticky header.
  await kamSwitch.evaluate((element) => element.scrollIntoView({ block: 'center' }));
  // Mantine draws the track over its input: the click lands on the track, as a person's would;
  // the switch turns once the server has answered.
  await kamSwitch.click({ force: true });
  await expect(page.getByText('KAM: se otorgó «Ver y exportar la auditoría', { exact: false })).toBeVisible();
  await expect(kamSwitch).toBeChecked();
  await page.screenshot({ path: '.tmp/screens/permisos-1440.png' });

  const kam = await signedInKam(browser);
  try {
    await kam.page.goto('/configuracion/proyectos');
    const auditTab = kam.page.getByRole('tab', { name: 'Auditoría' });
    await expect(auditTab).toBeVisible();
    // The KAM does not manage permissions: that tab stays hidden.
    await expect(kam.page.getByRole('tab', { name: 'Permisos' })).toHaveCount(0);
    await auditTab.click();
    await expect(kam.page.getByRole('table', { name: 'Auditoría' })).toBeVisible();

    await kamSwitch.evaluate((element) => element.scrollIntoView({ block: 'center' }));
    await kamSwitch.click({ force: true });
    await expect(
      page.getByText('KAM: se retiró «Ver y exportar la auditoría', { exact: false }),
    ).toBeVisible();
    await expect(kamSwitch).not.toBeChecked();
    // The KAM's open tab hears the change (live events) and reads its session again: the tab goes.
    await expect(kam.page.getByRole('tab', { name: 'Auditoría' })).toHaveCount(0);
    expect((await kam.page.request.get('/api/audit')).status()).toBe(403);
  } finally {
    await kam.close();
  }

  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByRole('listitem').filter({ hasText: AUDIT_LABEL })).toBeVisible();
  await page.getByRole('listitem').filter({ hasText: 'Eliminar clientes' }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: '.tmp/screens/permisos-390.png' });
});

test('Permisos: otorgar a los KAM eliminar clientes les muestra el botón y retirarles el Informe de Pagos Brokers les quita el menú; al revés vuelven', async ({
  page,
  browser,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/configuracion/permisos');
  /** Turns the KAMs' switch of an action and waits for the server's word. */
  const turn = async (label: string, told: 'se otorgó' | 'se retiró') => {
    const toggle = page.getByRole('switch', { name: `${label} — KAM` });
    await toggle.evaluate((element) => element.scrollIntoView({ block: 'center' }));
    await toggle.click({ force: true });
    await expect(
      page.getByText(`KAM: ${told} «${label.slice(0, 20)}`, { exact: false }).last(),
    ).toBeVisible();
    await expect(toggle).toBeChecked({ checked: told === 'se otorgó' });
  };
  const DELETE_CLIENTS = 'Eliminar clientes';
  const BROKER_PAYMENTS = 'Ver el Informe de Pagos Brokers';

  const kam = await signedInKam(browser);
  try {
    await kam.page.goto('/clientes');
    const menu = kam.page.getByRole('navigation', { name: 'Menú principal' });
    await menu.getByText('Informes', { exact: true }).click();
    const brokerPayments = menu.getByRole('link', { name: 'Pagos Brokers', exact: true });
    const deleteButtons = kam.page.getByRole('button', { name: /^Eliminar a / });
    await expect(kam.page.getByRole('table').first()).toBeVisible();
    // Today's defaults: the menu entry is there, the delete buttons are not.
    await expect(brokerPayments).toBeVisible();
    await expect(deleteButtons).toHaveCount(0);

    // Granted: the KAM's open tab hears it and the buttons appear; withdrawn: the menu entry goes.
    await turn(DELETE_CLIENTS, 'se otorgó');
    await expect(deleteButtons.first()).toBeVisible();
    await turn(BROKER_PAYMENTS, 'se retiró');
    await expect(brokerPayments).toHaveCount(0);
    expect((await kam.page.request.get('/api/reports/broker-payments')).status()).toBe(403);
    await kam.page.screenshot({ path: '.tmp/screens/permisos-kam-1440.png' });

    // Back as they were: the buttons go, the menu entry comes back.
    await turn(DELETE_CLIENTS, 'se retiró');
    await expect(deleteButtons).toHaveCount(0);
    await turn(BROKER_PAYMENTS, 'se otorgó');
    await expect(brokerPayments).toBeVisible();
  } finally {
    await kam.close();
  }
});
