import { randomBytes } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import { type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import { reservationFigures } from '../../shared/domain/pricing';
import { rutCheckDigit } from '../../shared/domain/rut';
import { type Action, actionsOf, type UserType } from '../../shared/permissions';
import { asSystem } from '../db/actor';
import { textArrayParam } from '../db/arrays';
import { type Database, queryRows } from '../db/client';
import { brokers, clients, profiles, projects, realEstateAgencies, reservations } from '../db/schema';
import { ARGON2ID } from '../features/auth/passwords';

export const TEST_PASSWORD = 'clave-segura-123';
// The users built here share one password hash, argon2id at its lowest cost (8 KiB, one pass): a
// sign-in verifies with the parameters its hash records, so `loginAs` goes through the real login
// route without the production cost (~20 ms each, ~680 sign-ins per engine in a run). Real accounts
// get DESIGN §5's parameters from `hashPassword`, which auth.test.ts checks.
let testPasswordHash: Promise<string> | undefined;

export interface TestUser {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  userType: UserType;
  /** What the catalogue gives this type by default (a service called directly acts with these). */
  actions: Action[];
}

export function uniqueSuffix(): string {
  return randomBytes(4).toString('hex');
}

export async function createUser(
  db: Database,
  overrides: Partial<{
    userType: UserType;
    email: string;
    firstName: string;
    lastName: string;
    position: string;
    isSeller: boolean;
  }> = {},
): Promise<TestUser> {
  testPasswordHash ??= hash(TEST_PASSWORD, {
    algorithm: ARGON2ID,
    memoryCost: 8,
    timeCost: 1,
    parallelism: 1,
  });
  const values = {
    email: overrides.email ?? `usuario.${uniqueSuffix()}@inmoflujo.test`,
    firstName: overrides.firstName ?? 'Ana',
    lastName: overrides.lastName ?? 'Rojas',
    position: overrides.position ?? 'Analista',
    userType: overrides.userType ?? 'Administrador',
    isSeller: overrides.isSeller ?? false,
    passwordHash: await testPasswordHash,
  };
  const [row] = await asSystem(db, (tx) => tx.insert(profiles).values(values).returning({ id: profiles.id }));
  return {
    id: row!.id,
    email: values.email,
    firstName: values.firstName,
    lastName: values.lastName,
    userType: values.userType,
    actions: actionsOf(values.userType),
  };
}

// ---------------------------------------------------------------------------------------------
// Business data. Each builder inserts one valid row directly (fast, no API), with overridable
// fields; derived figures are computed with the same shared math the server uses. Set-up writes as
// 'sistema' in the audit trail (decision 0024).

let sequence = 0;
function next(): number {
  sequence += 1;
  return sequence;
}

// RUT bodies count up from a random start: unique within a test file, different between runs.
const rutBase = 20_000_000 + Math.floor(Math.random() * 8_000_000);

/** A valid, unique RUT ('12345678-5'). */
export function uniqueRut(): string {
  const body = String(rutBase + next());
  return `${body}-${rutCheckDigit(body)}`;
}

export async function createAgency(
  db: Database,
  overrides: Partial<typeof realEstateAgencies.$inferInsert> = {},
) {
  const [row] = await asSystem(db, (tx) =>
    tx
      .insert(realEstateAgencies)
      .values({
        rut: uniqueRut(),
        businessName: `Inmobiliaria ${next()} SpA`,
        bank: 'Banco de Chile',
        accountType: 'Cuenta Corriente',
        accountNumber: '000123456',
        ...overrides,
      })
      .returning(),
  );
  return row!;
}

export async function createProject(db: Database, overrides: Partial<typeof projects.$inferInsert> = {}) {
  const agencyId = overrides.realEstateAgencyId ?? (await createAgency(db)).id;
  const [row] = await asSystem(db, (tx) =>
    tx
      .insert(projects)
      .values({
        name: `Proyecto ${next()}`,
        stage: 'Etapa 1',
        commune: 'Ñuñoa',
        deadline: '2027-06-30',
        totalUnits: 120,
        ...overrides,
        realEstateAgencyId: agencyId,
      })
      .returning(),
  );
  return row!;
}

export async function createClient(db: Database, overrides: Partial<typeof clients.$inferInsert> = {}) {
  const [row] = await asSystem(db, (tx) =>
    tx
      .insert(clients)
      .values({
        rut: uniqueRut(),
        firstName: 'Juan',
        lastName: `Pérez ${next()}`,
        birthDate: '1985-04-12',
        email: null,
        phone: null,
        ...overrides,
      })
      .returning(),
  );
  return row!;
}

/**
 * A broker. With bank data, its account is held by the broker itself (its legal name and RUT) and
 * already verified (issue 53), unless the overrides say otherwise.
 */
export async function createBroker(db: Database, overrides: Partial<typeof brokers.$inferInsert> = {}) {
  const n = next();
  const rut = overrides.rut ?? uniqueRut();
  const businessName = overrides.businessName ?? `Corredora ${n} Limitada`;
  const bank = overrides.bankName
    ? {
        bankHolderName: businessName,
        bankHolderRut: rut,
        bankChangedAt: new Date(),
        bankVerifiedAt: new Date(),
      }
    : {};
  const [row] = await asSystem(db, (tx) =>
    tx
      .insert(brokers)
      .values({
        rut,
        name: `Broker ${n}`,
        businessName,
        legalRepresentative: 'María González',
        legalRepresentativeRut: uniqueRut(),
        commercialAddress: 'Av. Apoquindo 4500',
        commercialAddressCommune: 'Las Condes',
        commercialContactName: 'Pablo Díaz',
        constitutionDate: '2015-03-10',
        constitutionNotary: 'Notaría Pérez',
        kamName: 'Karla Mendoza',
        ...bank,
        ...overrides,
      })
      .returning(),
  );
  return row!;
}

type ReservationInsert = typeof reservations.$inferInsert;

/**
 * A reservation with its stored figures computed from its prices, discounts and payments.
 * Creates a client and a project when none is given. No flow and no commission (see the
 * reservations service for the real creation path).
 */
export async function createReservation(db: Database, overrides: Partial<ReservationInsert> = {}) {
  const clientId = overrides.clientId ?? (await createClient(db)).id;
  const projectId = overrides.projectId ?? (await createProject(db)).id;
  const values = {
    reservationNumber: `R-${next()}-${uniqueSuffix()}`,
    reservationDate: '2026-10-15',
    apartmentNumber: String(100 + next()),
    apartmentPrice: '3000.00',
    parkingPrice: '150.00',
    storagePrice: '50.00',
    columnDiscount: '0.050000',
    additionalDiscount: '0',
    otherDiscount: '0',
    reservationPayment: '20.00',
    promisePayment: '180.00',
    downPayment: '300.00',
    creditPayment: '2400.00',
    subsidyPayment: '100.00',
    ...overrides,
    clientId,
    projectId,
  };
  const figures = reservationFigures(values);
  const [row] = await asSystem(db, (tx) =>
    tx
      .insert(reservations)
      .values({ ...values, ...figures })
      .returning(),
  );
  return row!;
}

/**
 * A reservation body's terms when its figures are not what a test is about: every price, discount
 * and payment zero but a 20 UF reservation payment, no broker, the apartment a placeholder that the
 * chosen unit (`apartmentUnitId`) replaces in a project with an inventory.
 */
export const PLAIN_RESERVATION_TERMS = {
  apartmentNumber: 'x',
  parkingNumber: null,
  storageNumber: null,
  apartmentPrice: '0',
  parkingPrice: '0',
  storagePrice: '0',
  columnDiscount: '0',
  additionalDiscount: '0',
  otherDiscount: '0',
  reservationPayment: '20',
  promisePayment: '0',
  downPayment: '0',
  creditPayment: '0',
  subsidyPayment: '0',
  isWithBroker: false,
  brokerId: null,
};

/**
 * Many rows for a query-plan test, loaded as the benchmark's generator loads them: one transaction
 * with the triggers off (no audit rows, rollups or inbox — what the plan is asked about is the query,
 * not them). Whatever a trigger would have filled the statements fill themselves (a reservation's
 * copy of its client's search text). The indexes of `tables` that no constraint owns are dropped
 * first and made again from their own definitions once the rows are in: one sorted build instead of
 * an insertion per row (30,000 reservations took 42 s on the embedded database, most of it in the
 * trigram indexes; 2 s plus 7 s of builds). The schema ends as it began, which the reset checks.
 */
export async function loadInBulk(
  db: Database,
  tables: readonly string[],
  statements: readonly SQL[],
): Promise<void> {
  const hiddenUntilPassed = await db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    const indexes = await queryRows(
      tx,
      sql`select indexname as name, indexdef as definition from pg_indexes
           where schemaname = 'public' and tablename = any(${textArrayParam(tables)})
             and indexname not in (select conname from pg_constraint)`,
      z.object({ name: z.string(), definition: z.string() }),
    );
    for (const { name } of indexes) await tx.execute(sql.raw(`drop index ${name}`));
    for (const statement of statements) await tx.execute(statement);
    for (const { definition } of indexes) await tx.execute(sql.raw(definition));
    if (indexes.length === 0) return null;
    const [built] = await queryRows(
      tx,
      sql`select pg_current_xact_id()::text as xid,
                 exists (select 1 from pg_index i join pg_class c on c.oid = i.indexrelid
                          where c.relname = any(${textArrayParam(indexes.map(({ name }) => name))}) and i.indcheckxmin) as hidden`,
      z.object({ xid: z.string(), hidden: z.boolean() }),
    );
    return built!.hidden ? built!.xid : null;
  });
  if (hiddenUntilPassed) await untilSnapshotsPass(db, hiddenUntilPassed);
}

/**
 * An index built over a table still holding a dead row of a HOT chain that some snapshot could see
 * is marked `indcheckxmin`: no plan may use it while any transaction that was running when it was
 * built (on any database of the server, so another test worker's) still runs. A plan test reading
 * right after the load would then see a sequential scan once in a while. Waits until every snapshot
 * taken now is past the building transaction, as the planner's own test (`get_relation_info`) asks.
 */
async function untilSnapshotsPass(db: Database, builtBy: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const [now] = await queryRows(
      db,
      sql`select pg_snapshot_xmin(pg_current_snapshot()) > ${builtBy}::xid8 as passed`,
      z.object({ passed: z.boolean() }),
    );
    if (now!.passed) return;
    if (Date.now() > deadline) throw new Error(`transactions older than ${builtBy} still run after 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** UF values of some days, stored as an imported table stores them (source 'file'). */
export async function seedUfValues(db: Database, values: Record<string, string>): Promise<void> {
  await asSystem(db, async (tx) => {
    for (const [date, value] of Object.entries(values)) {
      await tx.execute(
        sql`insert into uf_values (date, value, source) values (${date}::date, ${value}, 'file')`,
      );
    }
  });
}
