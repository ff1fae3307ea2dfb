import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Database } from './db/client';
import { cookieSecure, type Env, loadEnv } from './env';
import { type EventBus, inProcessEventBus } from './events/event-bus';
import { eventsRoutes, MAX_STREAMS_PER_SESSION, registerEventStreamGate } from './events/events.routes';
import { approvalsRoutes } from './features/approvals/approvals.routes';
import { auditRoutes } from './features/audit/audit.routes';
import { authRoutes } from './features/auth/auth.routes';
import type { AuthSettings } from './features/auth/auth.service';
import { backupsRoutes } from './features/backups/backups.routes';
import type { EmbeddedBackups } from './features/backups/backups.service';
import { brokerInvoicesRoutes } from './features/broker-invoices/broker-invoices.routes';
import { brokersRoutes } from './features/brokers/brokers.routes';
import {
  buyerAccountRoutes,
  buyerAccountsRoutes,
  buyerStatementRoutes,
} from './features/buyer-accounts/buyer-accounts.routes';
import { clientsRoutes } from './features/clients/clients.routes';
import { commissionsRoutes } from './features/commissions/commissions.routes';
import { dashboardRoutes } from './features/dashboard/dashboard.routes';
import { dataRequestsRoutes } from './features/data-requests/data-requests.routes';
import { documentsRoutes, documentTypesRoutes } from './features/documents/documents.routes';
import { filesRoutes } from './features/files/files.routes';
import { healthRoutes } from './features/health/health.routes';
import { importsRoutes } from './features/imports/imports.routes';
import { mailRoutes } from './features/mail/mail.routes';
import {
  createMailSender,
  fileTransport,
  type MailSender,
  type MailTransport,
  smtpTransport,
} from './features/mail/mail-sender';
import { notificationsRoutes } from './features/notifications/notifications.routes';
import { paymentBatchesRoutes } from './features/payment-batches/payment-batches.routes';
import { paymentFlowsRoutes, paymentsRoutes } from './features/payments/payments.routes';
import { loadGrantsStore } from './features/permissions/grants-store';
import { permissionsRoutes } from './features/permissions/permissions.routes';
import { brokerUsersRoutes, portalRoutes } from './features/portal/portal.routes';
import { promotionsRoutes } from './features/promotions/promotions.routes';
import { quotesRoutes } from './features/quotes/quotes.routes';
import { reportsRoutes } from './features/reports/reports.routes';
import { rescissionsRoutes } from './features/rescissions/rescissions.routes';
import { reservationsRoutes } from './features/reservations/reservations.routes';
import { saleFlowsRoutes } from './features/sale-flows/sale-flows.routes';
import { searchRoutes } from './features/search/search.routes';
import { settingsRoutes } from './features/settings/settings.routes';
import { stockRoutes } from './features/stock/stock.routes';
import { ufFetchSettings } from './features/uf-values/uf-source';
import { ufValuesRoutes } from './features/uf-values/uf-values.routes';
import { usersRoutes } from './features/users/users.routes';
import { flowTaskRoutes } from './features/workflows/flow-task-routes';
import { type Access, registerAccessGate, requireAccessDeclarations } from './http/access';
import { AppError } from './http/app-error';
import { registerCleanAnswers } from './http/clean-answers';
import { registerDependencies } from './http/context';
import { DoorGate, serverWithDoor } from './http/door-gate';
import { registerErrorHandling } from './http/error-handler';
import { HeavyJobs, registerHeavyJobs } from './http/heavy-jobs';
import { registerInputGuard } from './http/input-guard';
import { loggerOptions } from './http/logging';
import { openApiTransform } from './http/openapi';
import { waitForRunningHandlersOnClose } from './http/running-handlers';
import {
  registerOriginCheck,
  registerSessionHook,
  type SessionCookieSettings,
  sessionCookieName,
  sessionToken,
} from './http/session';
import { clientDistFolder } from './paths';

export interface AppOptions {
  db: Database;
  env?: Partial<Env>;
  /** Serve the built client from dist/client (off in API tests). */
  serveClient?: boolean;
  /** The clock of time-dependent figures (tests fix it); the system clock by default. */
  now?: () => Date;
  /** Where live updates go (in-process by default). */
  events?: EventBus;
  /** Where the log goes (tests read it); standard output by default. */
  logStream?: NodeJS.WritableStream;
  /** How e-mail leaves (tests); SMTP when SMTP_URL is set, .eml files under DATA_DIR/mail otherwise. */
  mailTransport?: MailTransport;
  /** Backups of the embedded database (absent on PostgreSQL: the product does not back it up). */
  backups?: EmbeddedBackups;
  /** How long `close()` waits for handlers still running (`STOP_GRACE_MS` by default). */
  stopGraceMs?: number;
  /** The heavy downloads and uploads running (decision 0050); tests hold slots of their own. */
  heavyJobs?: HeavyJobs;
  /** Tests only: routes planted in the API's scope, to show the declarations and the matrix failing. */
  plantRoutes?: (api: FastifyInstance) => Promise<void>;
}

const HOUR_MS = 3_600_000;
/** The page the documents panel frames, sandboxed, to draw a PDF (src/client/pdf-preview.html). */
const PDF_PREVIEW_PAGE = '/pdf-preview.html';

export interface RegisteredRoute {
  method: string;
  url: string;
  public: boolean;
  /** Who may call it, as declared (http/access.ts); read when asked, after every plugin had its say. */
  access: Access | undefined;
  /** The statuses whose answer a zod schema checks (and serializes) on the way out. */
  answerSchemas: string[];
  /** The zod schemas the request is parsed with (path parameters, query, body): the text-field walk reads them. */
  requestSchemas: { params?: unknown; querystring?: unknown; body?: unknown };
}

declare module 'fastify' {
  interface FastifyInstance {
    registeredRoutes: readonly RegisteredRoute[];
    /** The e-mail sender (decision 0035): main.ts starts it; tests call `deliverDue`. */
    mail: MailSender;
    /** The heavy downloads and uploads running now (decision 0050). */
    heavyJobs: HeavyJobs;
    /** The door before Fastify: a session's streams and uploads, an address's connections (decision 0062). */
    doorGate: DoorGate;
  }
}

/**
 * Gives a plugin its name for Fastify, which names an unnamed one by searching every loaded
 * CommonJS module's exports for it (and else by its source text): 57 → 46 ms of CPU per app built
 * and readied (two processes side by side, 150 builds each), paid once per API test. The name is the
 * function's own; a flow kind's task routes get theirs.
 */
function named<Plugin extends (...args: never[]) => unknown>(plugin: Plugin, name = plugin.name): Plugin {
  Object.defineProperty(plugin, Symbol.for('fastify.display-name'), { value: name, configurable: true });
  return plugin;
}

/** Builds the whole API (and the SPA when built) without listening: tests inject into it. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const env: Env = { ...loadEnv({}), ...options.env };
  const { db } = options;
  const secure = cookieSecure(env);
  const auth: AuthSettings = {
    registration: env.REGISTRATION,
    idleTimeoutMs: env.SESSION_IDLE_HOURS * HOUR_MS,
    absoluteTimeoutMs: env.SESSION_ABSOLUTE_DAYS * 24 * HOUR_MS,
  };
  const cookie: SessionCookieSettings = { secure, maxAgeSeconds: Math.round(auth.absoluteTimeoutMs / 1000) };

  const heavyJobs = options.heavyJobs ?? new HeavyJobs();
  // The door before Fastify (decision 0062): a session's excess streams and uploads refused in a few
  // bytes, an address's excess connections closed.
  const doorGate = new DoorGate(sessionCookieName(secure), {
    streamsPerSession: MAX_STREAMS_PER_SESSION,
    uploadsPerSession: heavyJobs.limits.perUser.upload,
    connectionsPerAddress: env.MAX_CONNECTIONS_PER_ADDRESS ?? (env.TRUST_PROXY ? 0 : 1000),
    retryAfterSeconds: heavyJobs.limits.retryAfterSeconds,
  });
  const app = Fastify({
    serverFactory: (handler, factoryOptions) => serverWithDoor(doorGate, handler, factoryOptions),
    logger: loggerOptions(env.LOG_LEVEL, options.logStream),
    trustProxy: env.TRUST_PROXY,
    bodyLimit: 1_048_576,
    // Uploads that trickle are cut off (decision 0050): the whole request within its time, and a
    // connection quiet for too long closed (an open event stream writes a heartbeat every 25 s).
    requestTimeout: env.REQUEST_TIMEOUT_SECONDS * 1000,
    connectionTimeout: env.IDLE_TIMEOUT_SECONDS * 1000,
    http: {
      // Node looks for requests past their time every this often (30 s by default).
      connectionsCheckingInterval: Math.min(5000, Math.ceil((env.REQUEST_TIMEOUT_SECONDS * 1000) / 4)),
      headersTimeout: Math.min(60_000, env.REQUEST_TIMEOUT_SECONDS * 1000),
    },
    // Unique across restarts and instances: the audit trail names the request of each change.
    genReqId: () => randomUUID(),
  });
  // Before any route: a handler whose client left still runs, and the database stays open for it.
  waitForRunningHandlersOnClose(app, options.stopGraceMs);
  // Every route, as registered: the deny-by-default test walks this list.
  const routes: RegisteredRoute[] = [];
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods)
      routes.push({
        method,
        url: route.url,
        get public() {
          return route.config?.access === 'public';
        },
        get access() {
          return route.config?.access;
        },
        answerSchemas: Object.keys((route.schema?.response as Record<string, unknown> | undefined) ?? {}),
        requestSchemas: {
          params: route.schema?.params,
          querystring: route.schema?.querystring,
          body: route.schema?.body,
        },
      });
  });
  app.decorate('registeredRoutes', routes);
  const mailTransport =
    options.mailTransport ??
    (env.SMTP_URL ? smtpTransport(env.SMTP_URL) : fileTransport(join(env.DATA_DIR, 'mail')));
  const mail = createMailSender({
    db,
    transport: mailTransport,
    from: env.MAIL_FROM,
    appUrl: env.APP_URL,
    now: options.now,
    log: app.log,
  });
  app.decorate('mail', mail);
  app.decorate('heavyJobs', heavyJobs);
  app.decorate('doorGate', doorGate);
  app.addHook('onClose', async () => mailTransport.close());
  const events = options.events ?? inProcessEventBus();
  const permissionGrants = await loadGrantsStore(db, events, app.log);
  app.addHook('onClose', async () => permissionGrants.close());
  registerDependencies(app, { db, now: options.now ?? (() => new Date()), events, permissionGrants });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);

  await app.register(fastifyCookie);
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Mantine sets inline style attributes and CSS variables.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: secure ? [] : null,
      },
    },
    hsts: secure ? { maxAge: 15_552_000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
  });

  await app.register(fastifySwagger, {
    openapi: { info: { title: 'Inmoflujo API', version: '1.0.0' } },
    transform: openApiTransform,
  });

  await app.register(
    named(async function apiScope(api) {
      // The API's own scope: its hooks apply to every route registered in it, whatever the spelling
      // of the path that reached it, and to its not-found answer (401 without a session).
      registerOriginCheck(
        api,
        env.ALLOWED_ORIGINS.split(',')
          .map((origin) => origin.trim())
          .filter(Boolean),
      );
      // Before the session hook: a session's streams beyond its limit cost no database look-up.
      registerEventStreamGate(api, (request) => sessionToken(request, cookie), doorGate);
      registerSessionHook(api, db, auth, cookie);
      registerAccessGate(api);
      registerInputGuard(api);
      registerCleanAnswers(api);
      registerHeavyJobs(api, heavyJobs);
      api.addHook('onSend', async (_request, reply) => {
        // Answers carry personal data: no browser or proxy keeps a copy.
        reply.header('Cache-Control', 'no-store');
      });
      api.setNotFoundHandler(() => {
        throw new AppError('NOT_FOUND');
      });
      // The API's documentation, for signed-in staff: registered before declarations are required,
      // its plugin's routes declared here (they take no options of ours).
      await api.register(
        named(async function apiDocs(docs) {
          docs.addHook('onRoute', (route) => {
            route.config = { ...route.config, access: 'staff' };
          });
          await docs.register(fastifySwaggerUi, { routePrefix: '/docs' });
        }),
      );
      // From here every route declares who may call it, or the app does not start (decision 0060).
      requireAccessDeclarations(api);
      await api.register(named(healthRoutes), { db });
      await api.register(named(authRoutes), {
        prefix: '/auth',
        db,
        settings: auth,
        cookie,
        login: { maxAttempts: env.LOGIN_MAX_ATTEMPTS, windowMs: env.LOGIN_WINDOW_MINUTES * 60_000 },
        register: { maxPerHour: env.REGISTER_MAX_PER_HOUR },
      });
      await api.register(named(reservationsRoutes), { prefix: '/reservations' });
      await api.register(named(stockRoutes), { prefix: '/stock' });
      await api.register(named(quotesRoutes), { prefix: '/quotes' });
      await api.register(named(commissionsRoutes), { prefix: '/reservations' });
      await api.register(named(promotionsRoutes), { prefix: '/reservations' });
      await api.register(named(rescissionsRoutes), { prefix: '/reservations' });
      await api.register(named(buyerAccountRoutes), { prefix: '/reservations' });
      await api.register(named(buyerStatementRoutes), { prefix: '/reservations' });
      await api.register(named(buyerAccountsRoutes), { prefix: '/buyer-accounts' });
      await api.register(named(clientsRoutes), { prefix: '/clients' });
      await api.register(named(brokersRoutes), { prefix: '/brokers' });
      await api.register(named(brokerUsersRoutes), { prefix: '/brokers' });
      // The brokers' portal (issue 58, decision 0069): its own sign-in and sessions.
      await api.register(named(portalRoutes), {
        prefix: '/portal',
        db,
        settings: auth,
        cookie,
        login: { maxAttempts: env.LOGIN_MAX_ATTEMPTS, windowMs: env.LOGIN_WINDOW_MINUTES * 60_000 },
      });
      await api.register(named(dashboardRoutes), { prefix: '/dashboard' });
      await api.register(named(usersRoutes), { prefix: '/users' });
      await api.register(named(settingsRoutes), { prefix: '/settings' });
      await api.register(named(permissionsRoutes), { prefix: '/settings/permissions' });
      await api.register(named(saleFlowsRoutes), { prefix: '/sale-flows' });
      await api.register(named(flowTaskRoutes('sale'), 'flowTaskRoutes(sale)'), { prefix: '/sale-flows' });
      await api.register(named(paymentsRoutes), { prefix: '/payments' });
      await api.register(named(paymentFlowsRoutes), { prefix: '/payment-flows' });
      await api.register(named(flowTaskRoutes('payment'), 'flowTaskRoutes(payment)'), {
        prefix: '/payment-flows',
      });
      await api.register(named(brokerInvoicesRoutes), { prefix: '/payment-flows' });
      await api.register(named(paymentBatchesRoutes), { prefix: '/payment-batches' });
      await api.register(named(approvalsRoutes), { prefix: '/approvals' });
      await api.register(named(reportsRoutes), { prefix: '/reports' });
      await api.register(named(searchRoutes), { prefix: '/search' });
      await api.register(named(notificationsRoutes), { prefix: '/notifications' });
      await api.register(named(eventsRoutes), { prefix: '/events' });
      await api.register(named(filesRoutes), { prefix: '/files' });
      await api.register(named(auditRoutes), { prefix: '/audit' });
      await api.register(named(dataRequestsRoutes), {
        prefix: '/data-requests',
        ledgerDir: options.backups?.settings.backupDir ?? null,
        mailDir: env.DATA_DIR ? join(env.DATA_DIR, 'mail') : null,
      });
      await api.register(named(mailRoutes), { prefix: '/mail', sender: mail, transport: mailTransport.kind });
      await api.register(named(importsRoutes), { prefix: '/imports' });
      await api.register(named(ufValuesRoutes), { prefix: '/uf-values', fetch: ufFetchSettings(env) });
      await api.register(named(documentsRoutes), { prefix: '/reservations' });
      await api.register(named(documentTypesRoutes), { prefix: '/document-types' });
      await api.register(named(backupsRoutes), { prefix: '/backups', backups: options.backups ?? null });
      if (options.plantRoutes) await api.register(named(options.plantRoutes, 'plantedRoutes'));
    }),
    { prefix: '/api' },
  );

  const serveClient = (options.serveClient ?? true) && existsSync(join(clientDistFolder, 'index.html'));
  if (serveClient) {
    await app.register(fastifyStatic, {
      root: clientDistFolder,
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside each script, stylesheet and index.html (vite.config.ts):
      // sent to browsers that accept them, the plain file to the others.
      preCompressed: true,
      setHeaders(res, path) {
        // Vite fingerprints everything under /assets: cache it for a year; never cache index.html.
        const asset = path.includes('/assets/');
        res.header('Cache-Control', asset ? 'public, max-age=31536000, immutable' : 'no-cache');
        // The PDF preview frame runs in an opaque origin (decision 0037): its module scripts are
        // cross-origin requests to it. The assets are the public build, the same for everyone.
        if (asset) res.header('Access-Control-Allow-Origin', '*');
      },
    });
    app.addHook('onSend', async (request, reply) => {
      // Only our own pages may frame the preview page; everything else keeps frame-ancestors 'none'.
      if (request.url.split('?')[0] !== PDF_PREVIEW_PAGE) return;
      const policy = String(reply.getHeader('Content-Security-Policy') ?? '');
      reply.header(
        'Content-Security-Policy',
        policy.replace("frame-ancestors 'none'", "frame-ancestors 'self'"),
      );
      reply.header('X-Frame-Options', 'SAMEORIGIN');
    });
  }
  app.setNotFoundHandler((request, reply) => {
    // Unknown API paths are answered by the API scope's own handler; everything else is the SPA's.
    if (!serveClient || request.method !== 'GET') {
      throw new AppError('NOT_FOUND');
    }
    // Every client route is served the SPA shell; the router takes it from there.
    return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
  });

  return app;
}
