import { expect, type Page } from '@playwright/test';
import { rutCheckDigit } from '../src/shared/domain/rut';

/** Accounts created by scripts/e2e-server.mjs before the server starts. */
export const ACCOUNTS = {
  admin: { email: 'admin@inmoflujo.test', password: 'clave-e2e-segura', name: 'Alicia Administradora' },
  kam: { email: 'kam@inmoflujo.test', password: 'clave-e2e-segura', name: 'Karla Mendoza' },
} as const;

export const ADMIN_STATE = '.tmp/e2e-admin-state.json';

/** Signs in through the login screen. */
export async function signIn(page: Page, account: { email: string; password: string }) {
  await page.goto('/login');
  await page.getByLabel('Correo Electrónico').fill(account.email);
  await page.getByLabel('Contraseña').fill(account.password);
  await page.getByRole('button', { name: 'Iniciar Sesión' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** Journeys that must start signed out: `test.use(SIGNED_OUT)`. Others start as the administrator. */
export const SIGNED_OUT = { storageState: { cookies: [], origins: [] } };

/** A valid RUT that no other test uses: a random body with its módulo-11 check digit. */
export function uniqueRut(): string {
  const body = String(10_000_000 + Math.floor(Math.random() * 14_999_999));
  return `${body}-${rutCheckDigit(body)}`;
}

export function uniqueText(prefix: string): string {
  return `${prefix} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
}
