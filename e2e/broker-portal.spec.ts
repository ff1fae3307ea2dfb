import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { simpleParser } from 'mailparser';
import { apiReservation, SIGNED_OUT, uniqueText } from './fixtures';

// Issue 58, decision 0069: the brokers' portal. The e2e server writes each e-mail as an .eml file
// under its data directory (as e2e/mail.spec.ts reads them).
const MAIL_FOLDER = join('.tmp', 'e2e-data', 'mail');

async function invitationLink(address: string): Promise<string | null> {
  let files: string[];
  try {
    files = readdirSync(MAIL_FOLDER).filter((name) => name.endsWith('.eml'));
  } catch {
    return null;
  }
  for (const name of files) {
    const mail = await simpleParser(readFileSync(join(MAIL_FOLDER, name)));
    const to = Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : [];
    if (!to.some((entry) => entry.value.some((value) => value.address === address))) continue;
    const link = mail.text?.match(/Crear su contraseña: (\S+)/)?.[1];
    if (link) return link;
  }
  return null;
}

test.describe('portal de brokers', () => {
  test('un administrador invita a una persona de la corredora, que crea su contraseña y ve sus operaciones en el teléfono', async ({
    page,
    browser,
    baseURL,
  }) => {
    const origin = new URL(baseURL!).origin;
    const word = uniqueText('p').split(' ')[1]!;
    const reservation = await apiReservation(page.request, origin, {
      firstName: 'Camila',
      lastName: `Portal ${word}`,
      prefix: 'PB',
      commission: { commissionAmount: '60', numberOfPayments: 2, firstPaymentPercentage: 50 },
    });
    const broker = (await (await page.request.get('/api/brokers?page=1&pageSize=1')).json()).rows[0];
    const email = `paula.${word}@corredora.cl`;

    // Brokers → the broker → 'Portal': the invitation.
    await page.goto(`/brokers/editar/${broker.id}`);
    const portal = page.getByRole('group', { name: 'Portal' });
    await portal.getByLabel('Nombre').fill('Paula Rojas');
    await portal.getByLabel('Correo Electrónico').fill(email);
    await portal.getByRole('button', { name: 'Invitar al portal' }).click();
    await expect(page.getByText('Invitación enviada por correo')).toBeVisible();
    const row = portal.getByRole('row').filter({ hasText: email });
    await expect(row).toContainText('Invitación enviada');
    await page.setViewportSize({ width: 1440, height: 1000 });
    await portal.scrollIntoViewIfNeeded();
    await page.screenshot({ path: '.tmp/portal-brokers-tab-1440.png', fullPage: false });

    let link: string | null = null;
    await expect
      .poll(async () => (link = await invitationLink(email)), {
        timeout: 30_000,
        intervals: [500, 1000, 2000],
      })
      .not.toBeNull();
    const target = new URL(link!);

    // The person, on a phone, without any staff session.
    const phone = await browser.newContext({ ...SIGNED_OUT, viewport: { width: 390, height: 844 } });
    const person = await phone.newPage();
    await person.goto(`${target.pathname}${target.search}`);
    await expect(person.getByRole('heading', { name: 'Crear Contraseña' })).toBeVisible();
    await person.getByLabel('Nueva Contraseña').fill('clave-del-portal-1');
    await person.getByLabel('Repita la Contraseña').fill('clave-del-portal-1');
    await person.getByRole('button', { name: 'Guardar Contraseña' }).click();
    await expect(person.getByText('Contraseña creada. Ya puede iniciar sesión.')).toBeVisible();
    await expect(person).toHaveURL(/\/portal$/);
    await person.screenshot({ path: '.tmp/portal-login-390.png' });

    // The link works once.
    const again = await phone.request.post('/api/portal/auth/password', {
      headers: { origin },
      data: { token: target.searchParams.get('token'), password: 'otra-clave-larga' },
    });
    expect(again.status()).toBe(400);

    await person.getByLabel('Correo Electrónico').fill(email);
    await person.getByLabel('Contraseña').fill('clave-del-portal-1');
    await person.getByRole('button', { name: 'Iniciar Sesión' }).click();
    await expect(person).toHaveURL(/\/portal\/operaciones$/);
    await expect(person.getByRole('heading', { name: 'Mis operaciones' })).toBeVisible();
    await expect(person.getByText(broker.name)).toBeVisible();
    const card = person.getByText(`Reserva N° ${reservation.number}`);
    await expect(card).toBeVisible();
    await expect(person.getByText(`Camila Portal ${word}`, { exact: false })).toBeVisible();
    await person.screenshot({ path: '.tmp/portal-operations-390.png', fullPage: true });

    // The portal's session reaches no staff route.
    const staff = await phone.request.get('/api/brokers');
    expect(staff.status()).toBe(403);

    await person.setViewportSize({ width: 1440, height: 900 });
    await person.screenshot({ path: '.tmp/portal-operations-1440.png' });
    await person.getByRole('button', { name: 'Cerrar sesión' }).click();
    await expect(person).toHaveURL(/\/portal$/);
    await phone.close();
  });
});
