import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
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

export interface ApiReservation {
  reservationId: string;
  /** Its sale flow, started with it. */
  saleFlowId: string;
  number: string;
  apartment: string;
}

/**
 * A client and a reservation of a unit nobody holds in 'Edificio Los Aromos' (or the project named),
 * made through the API (for journeys about what follows the reservation form). With `commission` it
 * is sold through the first broker of the list, with that commission (the rest of its fields left
 * empty, so the spec's defaults: tax included, for discount, no secondary prices).
 */
export async function apiReservation(
  request: APIRequestContext,
  origin: string,
  {
    firstName,
    lastName,
    prefix,
    sellerId = null,
    commission,
    projectName = 'Edificio Los Aromos',
  }: {
    firstName: string;
    lastName: string;
    /** Starts the reservation and apartment numbers, so a journey's rows are easy to tell. */
    prefix: string;
    sellerId?: string | null;
    /** 'Parque Vicuña' for a project past its deadline (the deed's bank data may be given). */
    projectName?: string;
    commission?: {
      commissionAmount: string;
      numberOfPayments: 1 | 2;
      firstPaymentPercentage: 25 | 50 | 100;
      payment1Date?: string;
    };
  },
): Promise<ApiReservation> {
  const headers = { origin };
  const client = await request.post('/api/clients', {
    headers,
    data: { rut: uniqueRut(), firstName, lastName, birthDate: '1987-09-14', phone: null, email: null },
  });
  expect(client.status(), await client.text()).toBe(201);
  const options = await (await request.get('/api/reservations/form-options')).json();
  const project = options.projects.find((candidate: { name: string }) => candidate.name === projectName);
  const broker = commission
    ? (await (await request.get('/api/brokers?page=1&pageSize=1')).json()).rows[0].id
    : null;
  const apartment = `${prefix}${uniqueText('').trim().slice(-6)}`;
  const reservation = await request.post('/api/reservations', {
    headers,
    data: {
      reservationNumber: uniqueText(prefix).replace(' ', '-'),
      clientId: (await client.json()).client.id,
      projectId: project.id,
      sellerId,
      reservationDate: '2026-10-05',
      apartmentNumber: apartment,
      apartmentPrice: '3000',
      columnDiscount: '0',
      additionalDiscount: '0',
      otherDiscount: '0',
      creditPayment: '2900',
      isWithBroker: broker !== null,
      brokerId: broker,
      ...(commission
        ? {
            commission: {
              commissionIncludesTax: true,
              commissionForDiscount: true,
              paysSecondary: false,
              ...commission,
            },
          }
        : {}),
    },
  });
  expect(reservation.status(), await reservation.text()).toBe(201);
  const { id, reservationFlowId, reservationNumber } = (await reservation.json()).reservation;
  return { reservationId: id, saleFlowId: reservationFlowId, number: reservationNumber, apartment };
}

/**
 * A staff user of one journey only (created by the administrator's page through Configuración's
 * API), signed in a browser context of their own: their bell and inboxes count only what the
 * journey gives them. Paula, a Gestora de Pagos who also sells, unless told otherwise.
 */
export async function newStaffUser(
  page: Page,
  browser: Browser,
  origin: string,
  who: { firstName?: string; lastName?: string; position?: string; userType?: string } = {},
) {
  const word = uniqueText('').trim();
  const firstName = who.firstName ?? 'Paula';
  const lastName = `${who.lastName ?? 'Gestora'} ${word}`;
  const email = `${firstName.toLowerCase()}-${word}@inmoflujo.test`;
  const password = 'clave-gestora-segura';
  const created = await page.request.post('/api/settings/users', {
    headers: { origin },
    data: {
      email,
      password,
      firstName,
      lastName,
      position: who.position ?? 'Gestora de Pagos',
      userType: who.userType ?? 'Gestor de Pagos',
      isSeller: true,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const context = await browser.newContext({
    baseURL: test.info().project.use.baseURL,
    locale: 'es-CL',
    timezoneId: 'America/Santiago',
    storageState: { cookies: [], origins: [] },
  });
  const herPage = await context.newPage();
  await signIn(herPage, { email, password });
  return {
    id: (await created.json()).user.id as string,
    name: `${firstName} ${lastName}`,
    page: herPage,
    close: () => context.close(),
  };
}

/** Completes the named tasks of a payment flow through the API, in order, as the administrator. */
export async function completePaymentTasks(page: Page, flowId: string, names: readonly string[]) {
  const origin = new URL(page.url()).origin;
  for (const name of names) {
    const flow = (await (await page.request.get(`/api/payment-flows/${flowId}`)).json()).flow;
    const task = flow.stages
      .flatMap((stage: { tasks: { id: string; name: string; version: number }[] }) => stage.tasks)
      .find((row: { name: string }) => row.name === name);
    const done = await page.request.put(`/api/payment-flows/${flowId}/tasks/${task.id}/status`, {
      headers: { origin },
      data: { status: 'completed', version: task.version },
    });
    expect(done.status(), await done.text()).toBe(200);
  }
}

/**
 * Picks an option of a combobox that searches on the server: types the text, waits for the server's
 * answer to that search (until then the dropdown lists what the previous search found), then chooses
 * the option named. The option is told it was clicked rather than clicked with the mouse: near the
 * window's bottom edge the dropdown opens out of view, and scrolling the page to reach it takes the
 * box out of view, which hides the dropdown (Mantine's `hideDetached`) — under load the mouse then
 * waited a minute for an option it could never see ('crea una reserva con broker', three times).
 */
export async function pickSearchedOption(
  page: Page,
  combobox: string,
  searchText: string,
  option: string | RegExp,
) {
  const answered = page.waitForResponse((response) => {
    const url = new URL(response.url());
    return url.pathname.startsWith('/api/') && url.searchParams.get('search') === searchText;
  });
  const box = page.getByRole('combobox', { name: combobox });
  await box.fill(searchText);
  await answered;
  await page.getByRole('option', { name: option }).dispatchEvent('click');
  await expect(box).not.toHaveValue(searchText);
}
