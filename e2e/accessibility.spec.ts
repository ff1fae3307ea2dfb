import { test as base, expect, type Page } from '@playwright/test';
import { SETTINGS_TABS } from '../src/client/app/paths';
import { severeAxeViolations } from './axe';
import { ADMIN_STATE, SIGNED_OUT } from './fixtures';

// Issue 10, item 12: axe-core on every screen of part 1 and the Configuración tabs, at desktop width
// and on a phone; no violation of impact serious or critical.

const VIEWPORTS = [
  { name: 'escritorio', width: 1440, height: 900 },
  { name: 'teléfono', width: 390, height: 844 },
] as const;

/**
 * The administrator's screens share one page per worker: the app is loaded once, and each screen is
 * then reached by the router, as a click in the menu would (the address pushed, `popstate` told) —
 * loading the whole app again for each of 70-odd checks was a quarter of this file's time. The
 * viewport is set per check; axe reads the screen as rendered either way.
 */
const test = base.extend<object, { workerPage: Page }>({
  workerPage: [
    async ({ browser }, use, workerInfo) => {
      const { baseURL, locale, timezoneId, userAgent, deviceScaleFactor } = workerInfo.project.use;
      const context = await browser.newContext({
        baseURL,
        locale,
        timezoneId,
        userAgent,
        deviceScaleFactor,
        storageState: ADMIN_STATE,
      });
      await use(await context.newPage());
      await context.close();
    },
    { scope: 'worker' },
  ],
});

// Each check reads the screen only (the first-flow opening it may do is idempotent): the file's
// 70-odd checks share both workers instead of running one after another on one.
test.describe.configure({ mode: 'parallel' });

/** Shows `path` on the worker's page: a first load, then the router. */
async function openScreen(page: Page, path: string) {
  if (!page.url().startsWith('http')) {
    await page.goto(path);
    return;
  }
  // `settle` then waits for the screen's heading and for its requests to end.
  await page.evaluate((target) => {
    window.history.pushState({}, '', target);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

interface Screen {
  path: string | ((ids: RecordIds) => string);
  /** The screen's title, exactly, or a pattern when it names a record. */
  heading: string | RegExp;
}

interface RecordIds {
  client: string;
  reservation: string;
  broker: string;
  /** A reservation sold with a broker, with its commission (/pagos/{id}). */
  commissionReservation: string;
  /** Its first payment flow (/pagos/flujo/{id}), opened as a row click does (created if none). */
  paymentFlow: string;
  /** The 'VB Jefe Inversiones' task of that flow (/informes/aprobacion-liquidaciones/{id}). */
  approval: string;
  /** A project with an inventory: its edit form shows its units, price lists and policy (issue 31). */
  stockProject: string;
}

const SIGNED_OUT_SCREENS: Screen[] = [
  { path: '/login', heading: 'Iniciar Sesión' },
  { path: '/register', heading: 'Crear cuenta' },
];

const SCREENS: Screen[] = [
  { path: '/dashboard', heading: 'Dashboard' },
  { path: '/clientes', heading: 'Clientes' },
  { path: '/clientes/nuevo', heading: 'Nuevo Cliente' },
  { path: (ids) => `/clientes/editar/${ids.client}`, heading: 'Editar Cliente' },
  { path: '/cotizaciones', heading: 'Cotizaciones' },
  { path: '/cotizaciones/nueva', heading: 'Nueva cotización' },
  { path: '/reservas', heading: 'Reservas' },
  { path: '/reservas/nueva', heading: 'Nueva Reserva' },
  { path: (ids) => `/reservas/editar/${ids.reservation}`, heading: 'Editar Reserva' },
  { path: (ids) => `/reservas/${ids.reservation}/documentos`, heading: /^Documentos · Reserva N°/ },
  { path: '/disponibilidad', heading: 'Disponibilidad' },
  { path: (ids) => `/configuracion/proyectos/editar/${ids.stockProject}`, heading: 'Editar Proyecto' },
  { path: '/brokers', heading: 'Brokers' },
  { path: '/brokers/nuevo', heading: 'Nuevo Broker' },
  { path: (ids) => `/brokers/editar/${ids.broker}`, heading: 'Editar Broker' },
  { path: '/notificaciones', heading: 'Mis Tareas Pendientes' },
  // Everyone's open tasks (the administrator): cards with assignees, stage groups, 'Ver más'.
  { path: '/seguimiento', heading: 'Mis Tareas Pendientes' },
  { path: '/pagos', heading: 'Pagos' },
  { path: '/pagos/nomina', heading: 'Pagos' },
  { path: (ids) => `/pagos/${ids.commissionReservation}`, heading: 'Editar Comisión' },
  { path: (ids) => `/pagos/flujo/${ids.paymentFlow}`, heading: /^Flujo de Pago N°/ },
  { path: '/informes/aprobacion-liquidaciones', heading: 'Aprobación de Liquidaciones' },
  {
    path: (ids) => `/informes/aprobacion-liquidaciones/${ids.approval}`,
    heading: /^VB Jefe Inversiones · Reserva N°/,
  },
  { path: '/informes/comisiones', heading: 'Informe de Comisiones' },
  { path: '/informes/proyeccion-comisiones', heading: 'Proyección Comisiones' },
  { path: '/informes/brokers?desde=2000-01-01&hasta=2099-12-31', heading: 'Informe de Brokers' },
  { path: '/informes/ventas?desde=2000-01-01&hasta=2099-12-31', heading: 'Informe de Ventas' },
  { path: '/informes/pagos-brokers', heading: 'Informe de Pagos Brokers' },
  { path: (ids) => `/informes/consolidado-brokers?broker=${ids.broker}`, heading: 'Consolidado Brokers' },
  ...SETTINGS_TABS.map((tab) => ({ path: `/configuracion/${tab}`, heading: 'Configuración' })),
];

/**
 * The ids, read once per worker (every check only reads the screens): the first check that needs
 * them asks the API, the rest reuse the answer.
 */
let knownIds: Promise<RecordIds> | null = null;
function recordIds(page: Page): Promise<RecordIds> {
  knownIds ??= readRecordIds(page).catch((error: unknown) => {
    knownIds = null;
    throw error;
  });
  return knownIds;
}

/**
 * The oldest client and reservation and the first broker of the e2e dataset (rows no journey
 * changes, unlike the ones journeys create while these checks run): their edit forms are checked.
 */
async function readRecordIds(page: Page): Promise<RecordIds> {
  const first = async (list: string, order = '') => {
    const response = await page.request.get(`/api/${list}?page=1&pageSize=1${order}`);
    expect(response.status(), `GET /api/${list}`).toBe(200);
    const body = (await response.json()) as { rows: { id: string }[] };
    expect(body.rows.length, `the e2e dataset has ${list}`).toBeGreaterThan(0);
    return body.rows[0]!.id;
  };
  const payments = await page.request.get('/api/payments?page=1&pageSize=100');
  expect(payments.status(), 'GET /api/payments').toBe(200);
  const rows = (await payments.json()).rows as {
    reservationId: string;
    commission: object | null;
    firstFlow: { id: string; status: string } | null;
  }[];
  // A flow under way shows the most (open, blocked and completed tasks, assignees, days late).
  const withCommission =
    rows.find((row) => row.firstFlow?.status === 'in_progress') ??
    rows.find((row) => row.commission !== null);
  expect(withCommission, 'the e2e dataset has a reservation with a broker commission').toBeDefined();
  const opened = await page.request.post(`/api/payments/${withCommission!.reservationId}/first-flow`, {
    headers: { origin: new URL(test.info().project.use.baseURL!).origin },
  });
  expect(opened.status(), 'POST first-flow').toBeLessThan(300);
  const paymentFlow = (await opened.json()).flowId as string;
  const flow = (await (await page.request.get(`/api/payment-flows/${paymentFlow}`)).json()).flow as {
    stages: { tasks: { id: string; name: string }[] }[];
  };
  const approval = flow.stages
    .flatMap((stage) => stage.tasks)
    .find((task) => task.name === 'VB Jefe Inversiones');
  expect(approval, "the payment flow has its 'VB Jefe Inversiones'").toBeDefined();
  const stock = (await (await page.request.get('/api/stock/projects')).json()) as {
    projects: { id: string; units: number }[];
  };
  const stockProject = stock.projects.find((project) => project.units > 0);
  expect(stockProject, 'the e2e dataset has a project with units').toBeDefined();
  return {
    stockProject: stockProject!.id,
    client: await first('clients', '&sort=createdAt&direction=asc'),
    reservation: await first('reservations', '&sort=reservationNumber&direction=asc'),
    broker: await first('brokers'),
    commissionReservation: withCommission!.reservationId,
    paymentFlow,
    approval: approval!.id,
  };
}

/** Waits until the screen has its data: its heading, no request in flight, no loader showing. */
async function settle(page: Page, heading: string | RegExp) {
  await expect(
    page.getByRole(
      'heading',
      typeof heading === 'string' ? { name: heading, exact: true } : { name: heading },
    ),
  ).toBeVisible();
  await page.waitForLoadState('networkidle');
  await expect(
    page.locator('.mantine-Loader-root:visible, .mantine-Skeleton-root[data-visible]'),
  ).toHaveCount(0);
}

/** axe's serious and critical violations, written one per line with where they are. */
async function severeViolations(page: Page): Promise<string[]> {
  return (await severeAxeViolations(page)).map((violation) => {
    const nodes = violation.nodes.slice(0, 6).map((node) => {
      const why = node.failureSummary?.split('\n').slice(1).join(' ').trim();
      return `    ${node.target.join(' ')}${why ? ` — ${why}` : ''}`;
    });
    const more = violation.nodes.length > 6 ? [`    … and ${violation.nodes.length - 6} more`] : [];
    return [
      `  ${violation.id} [${violation.impact}] ${violation.help} (${violation.nodes.length} elements)`,
      ...nodes,
      ...more,
    ].join('\n');
  });
}

async function expectNoSevereViolations(page: Page, label: string) {
  const violations = await severeViolations(page);
  expect(
    violations.length,
    `${label}: ${violations.length} serious or critical axe violation(s)\n${violations.join('\n')}\n`,
  ).toBe(0);
}

for (const viewport of VIEWPORTS) {
  test.describe(`accesibilidad (${viewport.name})`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test.describe('sin sesión', () => {
      test.use(SIGNED_OUT);
      for (const screen of SIGNED_OUT_SCREENS) {
        test(`${screen.path} no tiene violaciones graves`, async ({ page }) => {
          await page.goto(screen.path as string);
          await settle(page, screen.heading);
          await expectNoSevereViolations(page, `${screen.path} (${viewport.name})`);
        });
      }
    });

    for (const screen of SCREENS) {
      const name =
        typeof screen.path === 'string'
          ? screen.path
          : screen.path({
              client: ':id',
              reservation: ':id',
              broker: ':id',
              commissionReservation: ':id',
              paymentFlow: ':id',
              approval: ':id',
              stockProject: ':id',
            });
      test(`${name} no tiene violaciones graves`, async ({ workerPage: page }) => {
        await page.setViewportSize({ width: viewport.width, height: viewport.height });
        const path = typeof screen.path === 'string' ? screen.path : screen.path(await recordIds(page));
        await openScreen(page, path);
        await settle(page, screen.heading);
        await expectNoSevereViolations(page, `${path} (${viewport.name})`);
      });
    }
  });
}

// The checks above pass only if axe, as run here, sees what it should: a screen given an image
// without a text alternative and a button without a name (both critical) is reported, both times.
test('axe, tal como se ejecuta aquí, detecta las violaciones graves de una pantalla', async ({
  workerPage: page,
}) => {
  await openScreen(page, '/clientes');
  await settle(page, 'Clientes');
  await page.evaluate(() => {
    const planted = document.createElement('div');
    planted.id = 'planted-violations';
    planted.innerHTML = '<img src="/favicon.svg"><button type="button"></button>';
    document.querySelector('main')?.append(planted);
  });
  try {
    const violations = (await severeViolations(page)).join('\n');
    expect(violations).toContain('image-alt [critical]');
    expect(violations).toContain('button-name [critical]');
  } finally {
    await page.evaluate(() => document.getElementById('planted-violations')?.remove());
  }
});
