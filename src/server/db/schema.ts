/**
 * The whole data model of both spec parts, in one schema for PGlite and PostgreSQL.
 * Money is numeric(14,2), discount fractions numeric(9,6), calendar dates DATE (as 'YYYY-MM-DD'
 * strings), instants timestamptz. Editable records carry `version` for optimistic locking.
 * Column names follow the spec; `order` is spelled `sort_order` (a reserved word).
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const id = () => uuid('id').primaryKey().defaultRandom();
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();
const version = () => integer('version').notNull().default(1);
const money = (name: string) => numeric(name, { precision: 14, scale: 2 });
const fraction = (name: string) => numeric(name, { precision: 9, scale: 6 });
const day = (name: string) => date(name, { mode: 'string' });
const instant = (name: string) => timestamp(name, { withTimezone: true });

/** Lower-cased, accent-free text for partial-match search (immutable, so usable in a stored column). */
const searchable = (expression: string) =>
  sql.raw(`lower(translate(${expression}, 'ÁÉÍÓÚÜÑáéíóúüñ', 'AEIOUUNaeiouun'))`);

const USER_TYPES_SQL = `'Administrador', 'KAM', 'Gestor de Pagos', 'Supervisor', 'Operaciones'`;
const ACCOUNT_TYPES_SQL = `'Cuenta Corriente', 'Cuenta Vista', 'Cuenta de Ahorro'`;
const FLOW_STATUSES_SQL = `'pending', 'in_progress', 'completed', 'cancelled'`;
const TASK_STATUSES_SQL = `'pending', 'in_progress', 'completed', 'blocked'`;

// ---------------------------------------------------------------------------------------------
// People, roles and sessions

export const profiles = pgTable(
  'profiles',
  {
    id: id(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    position: text('position').notNull(),
    userType: text('user_type').notNull(),
    isSeller: boolean('is_seller').notNull().default(false),
    avatarUrl: text('avatar_url'),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
  },
  (t) => [
    uniqueIndex('profiles_email_key').on(sql`lower(${t.email})`),
    index('profiles_sellers_idx').on(t.firstName).where(sql`${t.isSeller}`),
    check('profiles_user_type_check', sql.raw(`user_type in (${USER_TYPES_SQL})`)),
  ],
);

export const roles = pgTable('roles', {
  id: id(),
  name: text('name').notNull().unique(),
  description: text('description'),
  createdAt: createdAt(),
});

export const userRoles = pgTable(
  'user_roles',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    roleId: uuid('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.roleId] })],
);

/** A signed-in browser. Only the SHA-256 of the cookie token is stored. */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastSeenAt: instant('last_seen_at').notNull().defaultNow(),
    expiresAt: instant('expires_at').notNull(),
    userAgent: text('user_agent'),
    ip: text('ip'),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/**
 * Failed sign-ins, one row per failure and counter (features/auth/login-throttle.ts, decision 0028):
 * in the database, so every server instance counts the same failures. The key is a hash of the
 * counter (e-mail + client, client, account), never the e-mail or address itself; rows older than
 * the longest window are deleted by the next sign-in.
 */
export const loginFailures = pgTable(
  'login_failures',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    key: text('key').notNull(),
    failedAt: instant('failed_at').notNull(),
  },
  (t) => [
    index('login_failures_key_idx').on(t.key, t.failedAt),
    index('login_failures_failed_at_idx').on(t.failedAt),
  ],
);

// ---------------------------------------------------------------------------------------------
// Agencies, projects, brokers, clients

export const realEstateAgencies = pgTable(
  'real_estate_agencies',
  {
    id: id(),
    rut: text('rut').notNull().unique(),
    businessName: text('business_name').notNull(),
    bank: text('bank').notNull(),
    accountType: text('account_type').notNull(),
    accountNumber: text('account_number').notNull(),
    /**
     * Who last set the account that decides where money goes, and who else verified it (issue 53,
     * decisions 0052 and 0063): 'Cuenta por verificar' until verified, never by its author.
     */
    bankChangedBy: uuid('bank_changed_by').references(() => profiles.id, { onDelete: 'set null' }),
    bankChangedAt: instant('bank_changed_at'),
    bankVerifiedBy: uuid('bank_verified_by').references(() => profiles.id, { onDelete: 'set null' }),
    bankVerifiedAt: instant('bank_verified_at'),
    createdBy: uuid('created_by').references(() => profiles.id, { onDelete: 'set null' }),
    updatedBy: uuid('updated_by').references(() => profiles.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
  },
  (t) => [
    index('real_estate_agencies_business_name_idx').on(t.businessName),
    check('real_estate_agencies_account_type_check', sql.raw(`account_type in (${ACCOUNT_TYPES_SQL})`)),
    check(
      'real_estate_agencies_bank_verified_check',
      sql`${t.bankVerifiedBy} is null or ${t.bankVerifiedBy} <> ${t.bankChangedBy}`,
    ),
  ],
);

export const projects = pgTable(
  'projects',
  {
    id: id(),
    name: text('name').notNull(),
    stage: text('stage').notNull(),
    commune: text('commune').notNull(),
    deadline: day('deadline').notNull(),
    realEstateAgencyId: uuid('real_estate_agency_id')
      .notNull()
      .references(() => realEstateAgencies.id, { onDelete: 'restrict' }),
    logoUrl: text('logo_url'),
    totalUnits: integer('total_units'),
    createdBy: uuid('created_by').references(() => profiles.id, { onDelete: 'set null' }),
    updatedBy: uuid('updated_by').references(() => profiles.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
  },
  (t) => [
    index('projects_name_idx').on(t.name),
    // The sale flow list ordered by project (issue 12): one project at a time.
    index('projects_name_stage_idx').on(t.name, t.stage, t.id),
    index('projects_agency_idx').on(t.realEstateAgencyId),
    check('projects_total_units_check', sql`${t.totalUnits} is null or ${t.totalUnits} >= 0`),
  ],
);

export const brokers = pgTable(
  'brokers',
  {
    id: id(),
    rut: text('rut').notNull().unique(),
    name: text('name').notNull(),
    businessName: text('business_name').notNull(),
    legalRepresentative: text('legal_representative').notNull(),
    legalRepresentativeRut: text('legal_representative_rut').notNull(),
    commercialAddress: text('commercial_address').notNull(),
    commercialAddressCommune: text('commercial_address_commune').notNull(),
    commercialContactName: text('commercial_contact_name').notNull(),
    commercialContactPhone: text('commercial_contact_phone'),
    commercialContactEmail: text('commercial_contact_email'),
    constitutionDate: day('constitution_date').notNull(),
    constitutionNotary: text('constitution_notary').notNull(),
    operationsContactName: text('operations_contact_name'),
    operationsContactPhone: text('operations_contact_phone'),
    operationsContactEmail: text('operations_contact_email'),
    financeContactName: text('finance_contact_name'),
    financeContactPhone: text('finance_contact_phone'),
    financeContactEmail: text('finance_contact_email'),
    kamName: text('kam_name').notNull(),
    kamPhone: text('kam_phone'),
    kamEmail: text('kam_email'),
    kamReceivesCommission: boolean('kam_receives_commission').notNull().default(false),
    /** Where the broker is paid (issue 33, decision 0040): the three together or none. */
    bankName: text('bank_name'),
    /** One of `BROKER_ACCOUNT_TYPES` (shared/domain/payment-batches.ts); the check constraint below. */
    bankAccountType: text('bank_account_type').$type<
      'Cuenta Corriente' | 'Cuenta Vista' | 'Cuenta de Ahorro' | 'Cuenta RUT'
    >(),
    bankAccountNumber: text('bank_account_number'),
    /** The address the bank's payment notice goes to. */
    paymentEmail: text('payment_email'),
    /**
     * Whose the account is (issue 53, decision 0052): the holder's legal name and RUT, what the bank
     * file names as beneficiary; with the bank data or without it, never half.
     */
    bankHolderName: text('bank_holder_name'),
    bankHolderRut: text('bank_holder_rut'),
    /** Who set the bank data as it is and when (its author, who may never verify it). */
    bankChangedBy: uuid('bank_changed_by').references(() => profiles.id, { onDelete: 'set null' }),
    bankChangedAt: instant('bank_changed_at'),
    /** The second person who verified it; null: 'Cuenta por verificar', not payable. */
    bankVerifiedBy: uuid('bank_verified_by').references(() => profiles.id, { onDelete: 'set null' }),
    bankVerifiedAt: instant('bank_verified_at'),
    searchText: text('search_text')
      .notNull()
      .generatedAlwaysAs(
        searchable(`name || ' ' || business_name || ' ' || rut || ' ' || replace(rut, '-', '')`),
      ),
    createdBy: uuid('created_by').references(() => profiles.id, { onDelete: 'set null' }),
    updatedBy: uuid('updated_by').references(() => profiles.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
  },
  (t) => [
    // The orders of /brokers (decision 0019), each ending in a unique column: name (the default), razón
    // social, KAM then name (also the KAM filter and the list of KAM names); RUT below.
    index('brokers_name_idx').on(t.name, t.id),
    check(
      'brokers_bank_account_check',
      sql`(${t.bankName} is null) = (${t.bankAccountType} is null) and (${t.bankName} is null) = (${t.bankAccountNumber} is null)`,
    ),
    check(
      'brokers_bank_account_type_check',
      sql.raw(`bank_account_type in (${ACCOUNT_TYPES_SQL}, 'Cuenta RUT')`),
    ),
    check('brokers_bank_account_number_check', sql`${t.bankAccountNumber} ~ '^[0-9]{4,20}$'`),
    check(
      'brokers_bank_holder_check',
      sql`(${t.bankName} is null) = (${t.bankHolderName} is null) and (${t.bankName} is null) = (${t.bankHolderRut} is null)`,
    ),
    check(
      'brokers_bank_verified_check',
      sql`(${t.bankVerifiedAt} is null or ${t.bankName} is not null) and (${t.bankVerifiedBy} is null or ${t.bankVerifiedBy} <> ${t.bankChangedBy})`,
    ),
    index('brokers_business_name_idx').on(t.businessName, t.id),
    index('brokers_kam_idx').on(t.kamName, t.name, t.id),
    // By RUT in number order (the RUT padded to its longest length, as for clients).
    index('brokers_rut_order_idx').on(sql`lpad(${t.rut}, 10, '0')`),
    index('brokers_search_trgm_idx').using('gin', sql`${t.searchText} gin_trgm_ops`),
  ],
);

export const clients = pgTable(
  'clients',
  {
    id: id(),
    rut: text('rut').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    /** Null only once the holder's data were suppressed (Ley 21.719, decision 0027). */
    birthDate: day('birth_date'),
    phone: text('phone'),
    email: text('email'),
    searchText: text('search_text')
      .notNull()
      .generatedAlwaysAs(
        searchable(`rut || ' ' || replace(rut, '-', '') || ' ' || first_name || ' ' || last_name`),
      ),
    /**
     * The holder's personal data were suppressed (decision 0027): names read 'Titular suprimido', the
     * RUT is a placeholder (the real one blocked in `client_blocked_values` when a legal duty keeps it),
     * birth date, phone and e-mail are gone; the client is also soft-deleted.
     */
    suppressedAt: instant('suppressed_at'),
    suppressedBy: uuid('suppressed_by').references(() => profiles.id, { onDelete: 'set null' }),
    /** Opposition or blocking (Ley 21.719): non-essential processing stops; marked on screen. */
    restriction: text('restriction'),
    restrictionReason: text('restriction_reason'),
    restrictedAt: instant('restricted_at'),
    restrictedBy: uuid('restricted_by').references(() => profiles.id, { onDelete: 'set null' }),
    createdBy: uuid('created_by').references(() => profiles.id, { onDelete: 'set null' }),
    updatedBy: uuid('updated_by').references(() => profiles.id, { onDelete: 'set null' }),
    deletedBy: uuid('deleted_by').references(() => profiles.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: instant('deleted_at'),
    version: version(),
  },
  (t) => [
    // A soft-deleted client frees its RUT; two live clients never share one.
    uniqueIndex('clients_rut_key').on(t.rut).where(sql`${t.deletedAt} is null`),
    index('clients_newest_idx').on(t.createdAt.desc(), t.id.desc()).where(sql`${t.deletedAt} is null`),
    // /clientes by RUT (decision 0019): in number order, '9.876.543-2' before '12.345.678-5' (the RUT as
    // text would put it after), by the RUT padded to its longest length.
    index('clients_rut_order_idx').on(sql`lpad(${t.rut}, 10, '0')`).where(sql`${t.deletedAt} is null`),
    // Every client, deleted ones included: the sale flow list (issue 12) finds reservations by their
    // client's name, and deleted clients stay on their reservations. Live-only searches filter it.
    index('clients_search_trgm_idx').using('gin', sql`${t.searchText} gin_trgm_ops`),
    // The sale flow list ordered by client walks the names.
    index('clients_name_idx').on(t.firstName, t.lastName, t.id),
    check(
      'clients_birth_date_until_suppressed',
      sql`${t.birthDate} is not null or ${t.suppressedAt} is not null`,
    ),
    check(
      'clients_restriction_check',
      sql`${t.restriction} is null or ${t.restriction} in ('opposition', 'blocking')`,
    ),
  ],
);

// ---------------------------------------------------------------------------------------------
// Holders' data rights (Ley 21.719, decision 0027)

/**
 * 'Solicitudes de titulares': a holder's request (access, rectification, suppression, opposition,
 * portability, blocking), answered within 30 calendar days. The holder is named by RUT (a request may
 * come from someone who is not a client); `client_id` links the client it concerns, when one is.
 */
export const dataSubjectRequests = pgTable(
  'data_subject_requests',
  {
    id: id(),
    kind: text('kind').notNull(),
    /** Normalised ('12345678-5'): kept as proof the request was answered (decision 0027). */
    holderRut: text('holder_rut').notNull(),
    clientId: uuid('client_id').references(() => clients.id, { onDelete: 'set null' }),
    receivedDate: day('received_date').notNull(),
    /** 30 calendar days after it was received: the law's deadline, computed here only. */
    dueDate: day('due_date').notNull().generatedAlwaysAs(sql`(received_date + 30)`),
    status: text('status').notNull().default('pending'),
    /** What the holder asked, in staff's words. */
    details: text('details'),
    response: text('response'),
    answeredAt: instant('answered_at'),
    handledBy: uuid('handled_by').references(() => profiles.id, { onDelete: 'set null' }),
    createdBy: uuid('created_by').references(() => profiles.id, { onDelete: 'set null' }),
    updatedBy: uuid('updated_by').references(() => profiles.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
  },
  (t) => [
    index('data_subject_requests_due_idx').on(t.dueDate, t.id),
    index('data_subject_requests_open_idx')
      .on(t.dueDate)
      .where(sql`${t.status} in ('pending', 'in_progress')`),
    index('data_subject_requests_client_idx').on(t.clientId),
    index('data_subject_requests_rut_idx').on(t.holderRut),
    check(
      'data_subject_requests_kind_check',
      sql`${t.kind} in ('access', 'rectification', 'suppression', 'opposition', 'portability', 'blocking')`,
    ),
    check(
      'data_subject_requests_status_check',
      sql`${t.status} in ('pending', 'in_progress', 'answered', 'rejected')`,
    ),
  ],
);

/**
 * Values a suppression kept because a legal duty requires them (decision 0027: the RUT of a buyer
 * with reservations, the payee data of a promotion paid to them): hidden from every screen, search and
 * export, read only through an audited administrator's action. Not audited row by row: storing and
 * reading them are events of their own in the log.
 */
export const clientBlockedValues = pgTable(
  'client_blocked_values',
  {
    id: id(),
    clientId: uuid('client_id')
      .notNull()
      .references(() => clients.id, { onDelete: 'restrict' }),
    /** Where the value lived: table, row and column. */
    tableName: text('table_name').notNull(),
    recordId: uuid('record_id').notNull(),
    columnName: text('column_name').notNull(),
    value: text('value').notNull(),
    requestId: uuid('request_id').references(() => dataSubjectRequests.id, { onDelete: 'restrict' }),
    blockedAt: instant('blocked_at').notNull(),
    blockedBy: uuid('blocked_by').references(() => profiles.id, { onDelete: 'set null' }),
  },
  (t) => [index('client_blocked_values_client_idx').on(t.clientId)],
);

/** The privacy settings: one row. `retention_years`: a client with no live reservation for this long is listed for review. */
export const privacySettings = pgTable(
  'privacy_settings',
  {
    id: boolean('id').primaryKey().default(true),
    retentionYears: integer('retention_years').notNull().default(5),
    /** Days an import's uploaded file is kept (decision 0055); the run's record stays. */
    importFileDays: integer('import_file_days').notNull().default(30),
    /** Days an .eml copy of a notice is kept in DATA_DIR/mail (decision 0055). */
    mailCopyDays: integer('mail_copy_days').notNull().default(30),
    updatedBy: uuid('updated_by').references(() => profiles.id, { onDelete: 'set null' }),
    updatedAt: updatedAt(),
    version: version(),
  },
  (t) => [
    check('privacy_settings_single_row', sql`${t.id}`),
    check('privacy_settings_retention_years', sql`${t.retentionYears} between 1 and 50`),
    check('privacy_settings_import_file_days', sql`${t.importFileDays} between 1 and 3650`),
    check('privacy_settings_mail_copy_days', sql`${t.mailCopyDays} between 1 and 3650`),
  ],
);

/**
 * The ledger of suppressions (decision 0054): no personal data — the request, when it was received
 * and carried out, and a salted SHA-256 of the holder's normalised RUT. Copied beside the backups, so
 * a restore re-applies every suppression recorded after the backup's date. `scrubbed_at`: when the
 * suppressed values' old versions were rewritten out of the embedded database's files and log.
 */
export const suppressionLedger = pgTable(
  'suppression_ledger',
  {
    requestId: uuid('request_id').primaryKey(),
    receivedDate: day('received_date').notNull(),
    suppressedAt: instant('suppressed_at').notNull(),
    rutSalt: text('rut_salt').notNull(),
    rutHash: text('rut_hash').notNull(),
    scrubbedAt: instant('scrubbed_at'),
  },
  (t) => [index('suppression_ledger_pending_idx').on(t.suppressedAt).where(sql`${t.scrubbedAt} is null`)],
);

/**
 * Roles as data (issue 56, decision 0061): the office's changes to who holds the catalogue's grantable
 * actions (`shared/permissions.ts`). A row overrides the default for one action and one user type;
 * no row: the catalogue's default. Fixed actions never have a row (the service refuses them).
 */
export const permissionGrants = pgTable(
  'permission_grants',
  {
    action: text('action').notNull(),
    userType: text('user_type').notNull(),
    granted: boolean('granted').notNull(),
    changedBy: uuid('changed_by').references(() => profiles.id, { onDelete: 'set null' }),
    changedAt: instant('changed_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.action, t.userType] })],
);

// ---------------------------------------------------------------------------------------------
// UF values (DESIGN §17, decision 0034): the pesos of one UF per day, with where each came from.
// A missing day is a missing row, never a guess.

export const UF_VALUE_SOURCES = ['file', 'user', 'automatic'] as const;

export const ufValues = pgTable(
  'uf_values',
  {
    date: day('date').primaryKey(),
    value: money('value').notNull(),
    source: text('source').notNull(),
    createdBy: uuid('created_by').references(() => profiles.id, { onDelete: 'set null' }),
    updatedBy: uuid('updated_by').references(() => profiles.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
  },
  (t) => [
    check('uf_values_positive', sql`${t.value} > 0`),
    check('uf_values_date_range', sql`${t.date} between '1977-01-01' and '2100-12-31'`),
    check('uf_values_source', sql`${t.source} in ('file', 'user', 'automatic')`),
  ],
);

/**
 * Each attempt of the automatic UF fetch (issue 33, decision 0034; only when an API key is set): when,
 * how many values came and how many were new, or why nothing was saved. Not audited: the values it
 * saves are (source 'automatic'), and a failed attempt changes nothing but this row.
 */
export const ufFetches = pgTable(
  'uf_fetches',
  {
    id: id(),
    attemptedAt: instant('attempted_at').notNull().defaultNow(),
    status: text('status').notNull(),
    received: integer('received').notNull().default(0),
    added: integer('added').notNull().default(0),
    /** Why nothing was saved (a failed attempt), in Spanish. */
    failure: text('failure'),
  },
  (t) => [
    index('uf_fetches_attempted_idx').on(t.attemptedAt),
    check('uf_fetches_status', sql`${t.status} in ('saved', 'failed')`),
    check('uf_fetches_failure', sql`(${t.status} = 'failed') = (${t.failure} is not null)`),
  ],
);

// ---------------------------------------------------------------------------------------------
// Reservations and what hangs off them

export const reservations = pgTable(
  'reservations',
  {
    id: id(),
    reservationNumber: text('reservation_number').notNull().unique(),
    clientId: uuid('client_id')
      .notNull()
      .references(() => clients.id, { onDelete: 'restrict' }),
    /**
     * A copy of the client's `search_text`, kept by triggers whatever writes (decision 0025): the
     * Flujo de Reservas searches reservations by their client's name without visiting clients. Never
     * written by the app (the default is overwritten on insert) nor shown in the audit trail.
     */
    clientSearchText: text('client_search_text').notNull().default(''),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'restrict' }),
    sellerId: uuid('seller_id').references(() => profiles.id, { onDelete: 'set null' }),
    reservationDate: day('reservation_date').notNull(),
    apartmentNumber: text('apartment_number').notNull(),
    parkingNumber: text('parking_number'),
    storageNumber: text('storage_number'),
    apartmentPrice: money('apartment_price').notNull().default('0'),
    parkingPrice: money('parking_price').notNull().default('0'),
    storagePrice: money('storage_price').notNull().default('0'),
    /** List price: the sum of the three prices (computed by the server). */
    totalPrice: money('total_price').notNull().default('0'),
    columnDiscount: fraction('column_discount').notNull().default('0'),
    additionalDiscount: fraction('additional_discount').notNull().default('0'),
    otherDiscount: fraction('other_discount').notNull().default('0'),
    minimumPrice: money('minimum_price').notNull().default('0'),
    reservationPayment: money('reservation_payment').notNull().default('0'),
    promisePayment: money('promise_payment').notNull().default('0'),
    downPayment: money('down_payment').notNull().default('0'),
    creditPayment: money('credit_payment').notNull().default('0'),
    subsidyPayment: money('subsidy_payment').notNull().default('0'),
    /** Total escrituración: the sum of the five payments (computed by the server). */
    totalPayment: money('total_payment').notNull().default('0'),
    /** Total recuperación: total escrituración minus the subsidy (computed by the server). */
    recoveryPayment: money('recovery_payment').notNull().default('0'),
    isWithBroker: boolean('is_with_broker').notNull().default(false),
    brokerId: uuid('broker_id').references(() => brokers.id, { onDelete: 'restrict' }),
    promiseDate: day('promise_date'),
    deedDate: day('deed_date'),
    commissionPaymentMonth: day('commission_payment_month'),
    commissionProjectionMonth: day('commission_projection_month'),
    bankName: text('bank_name'),
    bankExecutive: text('bank_executive'),
    bankExecutiveEmail: text('bank_executive_email'),
    bankExecutivePhone: text('bank_executive_phone'),
    /**
     * Why an administrator let this reservation exceed its project's commercial policy (decision
     * 0032); null when it keeps within it.
     */
    policyOverrideReason: text('policy_override_reason'),
    isRescinded: boolean('is_rescinded').notNull().default(false),
    rescindedAt: instant('rescinded_at'),
    rescindedReason: text('rescinded_reason'),
    rescindedBy: uuid('rescinded_by').references(() => profiles.id, { onDelete: 'set null' }),
    createdBy: uuid('created_by').references(() => profiles.id, { onDelete: 'set null' }),
    updatedBy: uuid('updated_by').references(() => profiles.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
  },
  (t) => [
    index('reservations_date_idx').on(t.reservationDate.desc(), t.id.desc()),
    // 'Pagos' (reservations sold with a broker), newest first: the page is read off the index.
    index('reservations_broker_date_idx')
      .on(t.reservationDate.desc(), t.id.desc())
      .where(sql`${t.isWithBroker}`),
    index('reservations_newest_idx').on(t.createdAt.desc(), t.id.desc()),
    index('reservations_client_idx').on(t.clientId),
    index('reservations_project_idx').on(t.projectId),
    index('reservations_broker_idx').on(t.brokerId),
    // The brokers' portal (issue 58): one broker's reservations, newest first, read off the index.
    index('reservations_broker_portal_idx').on(t.brokerId, t.reservationDate.desc(), t.id.desc()),
    index('reservations_seller_idx').on(t.sellerId),
    index('reservations_number_trgm_idx').using('gin', sql`lower(${t.reservationNumber}) gin_trgm_ops`),
    index('reservations_apartment_trgm_idx').using('gin', sql`lower(${t.apartmentNumber}) gin_trgm_ops`),
    // The Flujo de Reservas' client-name search (decision 0025). Without the pending list: the
    // embedded database runs no autovacuum, so every search would scan it until an unlucky insert
    // flushed it.
    index('reservations_client_search_trgm_idx')
      .using('gin', sql`${t.clientSearchText} gin_trgm_ops`)
      .with({ fastupdate: false }),
    index('reservations_payment_month_idx').on(t.commissionPaymentMonth),
    // Dashboard (decision 0011): narrow partial indexes over the reservations that are not rescinded,
    // so its aggregates are index-only scans instead of passes over the wide table. Per-project
    // counts (and the total); the six months' counts with what the commission join needs.
    index('reservations_live_project_idx').on(t.projectId).where(sql`not ${t.isRescinded}`),
    index('reservations_live_date_idx')
      .on(t.reservationDate, t.id, t.brokerId)
      .where(sql`not ${t.isRescinded}`),
    // The few rescinded reservations: commissions are summed with these left out.
    index('reservations_rescinded_idx').on(t.id).where(sql`${t.isRescinded}`),
    index('reservations_projection_month_idx').on(t.commissionProjectionMonth),
    // The brokers and sales reports by promise or deed date (decision 0023).
    index('reservations_promise_date_idx').on(t.promiseDate),
    index('reservations_deed_date_idx').on(t.deedDate),
    // No apartment, parking or storage is sold twice: one live (not rescinded) reservation each per project.
    uniqueIndex('reservations_live_apartment_key')
      .on(t.projectId, sql`lower(${t.apartmentNumber})`)
      .where(sql`not ${t.isRescinded}`),
    uniqueIndex('reservations_live_parking_key')
      .on(t.projectId, sql`lower(${t.parkingNumber})`)
      .where(sql`not ${t.isRescinded} and ${t.parkingNumber} is not null`),
    uniqueIndex('reservations_live_storage_key')
      .on(t.projectId, sql`lower(${t.storageNumber})`)
      .where(sql`not ${t.isRescinded} and ${t.storageNumber} is not null`),
    check('reservations_number_not_blank', sql`btrim(${t.reservationNumber}) <> ''`),
    check(
      'reservations_amounts_non_negative',
      sql`${t.apartmentPrice} >= 0 and ${t.parkingPrice} >= 0 and ${t.storagePrice} >= 0
        and ${t.reservationPayment} >= 0 and ${t.promisePayment} >= 0 and ${t.downPayment} >= 0
        and ${t.creditPayment} >= 0 and ${t.subsidyPayment} >= 0`,
    ),
    check(
      'reservations_discounts_fraction',
      sql`${t.columnDiscount} between 0 and 1 and ${t.additionalDiscount} between 0 and 1
        and ${t.otherDiscount} between 0 and 1`,
    ),
    check(
      'reservations_broker_when_with_broker',
      sql`(${t.isWithBroker} and ${t.brokerId} is not null) or (not ${t.isWithBroker} and ${t.brokerId} is null)`,
    ),
    check(
      'reservations_months_first_day',
      sql`(${t.commissionPaymentMonth} is null or extract(day from ${t.commissionPaymentMonth}) = 1)
        and (${t.commissionProjectionMonth} is null or extract(day from ${t.commissionProjectionMonth}) = 1)`,
    ),
  ],
);

// ---------------------------------------------------------------------------------------------
// Stock (decision 0032, DESIGN §15): a project's units, their versioned price lists, the commercial
// policy, and which units each reservation holds. A unit's commercial status is never stored: the
// view `unit_statuses` (src/server/db/current/views.sql) derives it from its live reservation and the
// unit status of the sale flow's stage (`workflow_stages.unit_status`).

export const UNIT_KINDS_SQL = `'apartment', 'parking', 'storage'`;

export const units = pgTable(
  'units',
  {
    id: id(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'restrict' }),
    kind: text('kind').notNull(),
    number: text('number').notNull(),
    floor: integer('floor'),
    building: text('building'),
    typology: text('typology'),
    orientation: text('orientation'),
    usableArea: numeric('usable_area', { precision: 10, scale: 2 }),
    terraceArea: numeric('terrace_area', { precision: 10, scale: 2 }),
    totalArea: numeric('total_area', { precision: 10, scale: 2 }),
    /** Set by an administrator who takes the unit off sale ('Bloqueada'); null when it is not. */
    blockedReason: text('blocked_reason'),
    createdBy: uuid('created_by').references(() => profiles.id, { onDelete: 'set null' }),
    updatedBy: uuid('updated_by').references(() => profiles.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
  },
  (t) => [
    uniqueIndex('units_project_kind_number_key').on(t.projectId, t.kind, sql`lower(${t.number})`),
    // The grid and the picker: one project's units in floor order.
    index('units_project_floor_idx').on(t.projectId, t.floor, t.number),
    // Global search by number ('depto 1203').
    index('units_number_trgm_idx').using('gin', sql`lower(${t.number}) gin_trgm_ops`),
    check('units_kind_check', sql.raw(`kind in (${UNIT_KINDS_SQL})`)),
    check('units_number_not_blank', sql`btrim(${t.number}) <> ''`),
    check(
      'units_areas_non_negative',
      sql`coalesce(${t.usableArea}, 0) >= 0 and coalesce(${t.terraceArea}, 0) >= 0 and coalesce(${t.totalArea}, 0) >= 0`,
    ),
    check(
      'units_blocked_reason_not_blank',
      sql`${t.blockedReason} is null or btrim(${t.blockedReason}) <> ''`,
    ),
  ],
);

/** A version of a project's prices, in force from its effective date until a later one. */
export const priceLists = pgTable(
  'price_lists',
  {
    id: id(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'restrict' }),
    effectiveDate: day('effective_date').notNull(),
    /** How many prices the list sets (for its Historial sentence and its history row). */
    priceCount: integer('price_count').notNull(),
    note: text('note'),
    createdBy: uuid('created_by').references(() => profiles.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('price_lists_project_date_key').on(t.projectId, t.effectiveDate)],
);

/**
 * One price of a list. A list may name only some units: a unit's price is the one of the newest list
 * in force that names it. The effective date is repeated so that lookup reads one index.
 */
export const priceListItems = pgTable(
  'price_list_items',
  {
    priceListId: uuid('price_list_id')
      .notNull()
      .references(() => priceLists.id, { onDelete: 'cascade' }),
    unitId: uuid('unit_id')
      .notNull()
      .references(() => units.id, { onDelete: 'cascade' }),
    effectiveDate: day('effective_date').notNull(),
    price: money('price').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.priceListId, t.unitId] }),
    index('price_list_items_unit_date_idx').on(t.unitId, t.effectiveDate.desc()),
    check('price_list_items_price_non_negative', sql`${t.price} >= 0`),
  ],
);

/** The commercial policy of a project: what a reservation may give without an administrator. */
export const projectPolicies = pgTable('project_policies', {
  projectId: uuid('project_id')
    .primaryKey()
    .references(() => projects.id, { onDelete: 'cascade' }),
  /** The least reservation payment ('Monto de reserva'), in UF. */
  reservationAmount: money('reservation_amount'),
  maxColumnDiscount: fraction('max_column_discount'),
  maxAdditionalDiscount: fraction('max_additional_discount'),
  maxOtherDiscount: fraction('max_other_discount'),
  /** The largest bono pie, as a fraction of the list price (precio lista). */
  maxSubsidyFraction: fraction('max_subsidy_fraction'),
  updatedBy: uuid('updated_by').references(() => profiles.id, { onDelete: 'set null' }),
  updatedAt: updatedAt(),
  version: version(),
});

/**
 * The units a reservation holds, with the price it was made at and the list it came from.
 * `is_live` mirrors `not reservations.is_rescinded` (kept by a trigger, migration 0027) so that the
 * partial unique index holds one live reservation per unit.
 */
export const reservationUnits = pgTable(
  'reservation_units',
  {
    reservationId: uuid('reservation_id')
      .notNull()
      .references(() => reservations.id, { onDelete: 'cascade' }),
    unitId: uuid('unit_id')
      .notNull()
      .references(() => units.id, { onDelete: 'restrict' }),
    price: money('price').notNull(),
    priceListId: uuid('price_list_id').references(() => priceLists.id, { onDelete: 'restrict' }),
    isLive: boolean('is_live').notNull().default(true),
  },
  (t) => [
    primaryKey({ columns: [t.reservationId, t.unitId] }),
    uniqueIndex('reservation_units_live_key').on(t.unitId).where(sql`${t.isLive}`),
    index('reservation_units_unit_idx').on(t.unitId),
  ],
);

/**
 * A project's stock version (decision 0032, update of 2026-11-27): a new random value in the
 * transaction of every change to what Disponibilidad shows — its units, their live reservations,
 * prices, the sale flows' stage and status, the holders' reservation number, client and seller names
 * — by triggers (migration 0035), whoever writes. An instance answers a grid it built while the
 * version is still the one it read before building it. Random, not a counter: a database restored
 * from a copy never gives back a value an instance kept for other data. No row: ''.
 */
export const projectStockVersions = pgTable('project_stock_versions', {
  projectId: uuid('project_id').primaryKey(),
  version: uuid('version').notNull().defaultRandom(),
});

export const promotions = pgTable(
  'promotions',
  {
    id: id(),
    reservationId: uuid('reservation_id')
      .notNull()
      .references(() => reservations.id, { onDelete: 'cascade' }),
    amount: money('amount').notNull(),
    beneficiary: text('beneficiary').notNull(),
    rut: text('rut').notNull(),
    bank: text('bank').notNull(),
    accountType: text('account_type').notNull(),
    accountNumber: text('account_number').notNull(),
    email: text('email').notNull(),
    purchaseOrder: text('purchase_order'),
    documentNumber: text('document_number'),
    documentDate: day('document_date'),
    paymentDate: day('payment_date'),
    /**
     * Who last set the account that decides where money goes, and who else verified it (issue 53,
     * decisions 0052 and 0063): 'Cuenta por verificar' until verified, never by its author.
     */
    bankChangedBy: uuid('bank_changed_by').references(() => profiles.id, { onDelete: 'set null' }),
    bankChangedAt: instant('bank_changed_at'),
    bankVerifiedBy: uuid('bank_verified_by').references(() => profiles.id, { onDelete: 'set null' }),
    bankVerifiedAt: instant('bank_verified_at'),
    createdBy: uuid('created_by').references(() => profiles.id, { onDelete: 'set null' }),
    updatedBy: uuid('updated_by').references(() => profiles.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
  },
  (t) => [
    index('promotions_reservation_idx').on(t.reservationId),
    check('promotions_amount_non_negative', sql`${t.amount} >= 0`),
    check('promotions_account_type_check', sql.raw(`account_type in (${ACCOUNT_TYPES_SQL})`)),
    check(
      'promotions_bank_verified_check',
      sql`${t.bankVerifiedBy} is null or ${t.bankVerifiedBy} <> ${t.bankChangedBy}`,
    ),
  ],
);

export const brokerCommissions = pgTable(
  'broker_commissions',
  {
    id: id(),
    reservationId: uuid('reservation_id')
      .notNull()
      .unique()
      .references(() => reservations.id, { onDelete: 'cascade' }),
    brokerId: uuid('broker_id')
      .notNull()
      .references(() => brokers.id, { onDelete: 'restrict' }),
    commissionAmount: money('commission_amount').notNull(),
    commissionIncludesTax: boolean('commission_includes_tax').notNull().default(true),
    netCommission: money('net_commission').notNull().default('0'),
    commissionForDiscount: boolean('commission_for_discount').notNull().default(true),
    paysSecondary: boolean('pays_secondary').notNull().default(false),
    numberOfPayments: smallint('number_of_payments').notNull().default(1),
    firstPaymentPercentage: smallint('first_payment_percentage').notNull().default(100),
    purchaseOrder: text('purchase_order'),
    invoice1: text('invoice_1'),
    invoice1Date: day('invoice_1_date'),
    payment1Date: day('payment_1_date'),
    invoice2: text('invoice_2'),
    invoice2Date: day('invoice_2_date'),
    payment2Date: day('payment_2_date'),
    /** Recovery minus minimum price minus commission (computed by the server; may be negative). */
    difference: money('difference').notNull().default('0'),
    atRisk: boolean('at_risk').notNull().default(false),
    atRiskReason: text('at_risk_reason'),
    penaltyAmount: money('penalty_amount'),
    /**
     * Frozen with each payment's date (decision 0034): the pesos paid and the UF value of that day.
     * Null while unpaid, or when the day's UF value was not loaded ('Valor UF no disponible').
     */
    payment1Clp: numeric('payment_1_clp', { precision: 14, scale: 0 }),
    payment1UfValue: money('payment_1_uf_value'),
    payment2Clp: numeric('payment_2_clp', { precision: 14, scale: 0 }),
    payment2UfValue: money('payment_2_uf_value'),
    createdBy: uuid('created_by').references(() => profiles.id, { onDelete: 'set null' }),
    updatedBy: uuid('updated_by').references(() => profiles.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
  },
  (t) => [
    index('broker_commissions_broker_idx').on(t.brokerId),
    // Dashboard (decision 0011): commission sums per broker and per month read this narrow index
    // (index-only) rather than the wide commission rows.
    index('broker_commissions_amount_idx').on(t.brokerId, t.reservationId, t.commissionAmount),
    check('broker_commissions_amount_non_negative', sql`${t.commissionAmount} >= 0`),
    check(
      'broker_commissions_penalty_non_negative',
      sql`${t.penaltyAmount} is null or ${t.penaltyAmount} >= 0`,
    ),
    check('broker_commissions_number_of_payments', sql`${t.numberOfPayments} in (1, 2)`),
    check('broker_commissions_first_payment_percentage', sql`${t.firstPaymentPercentage} in (25, 50, 100)`),
  ],
);

// ---------------------------------------------------------------------------------------------
// Workflows (DESIGN §10, decision 0013). One family of tables for the sale flow and both payment
// flows: definitions are rows (a flow is re-shaped by editing rows, never code), and flows are their
// instances. Only src/server/features/workflows writes the instance tables.

const WORKFLOW_KINDS_SQL = `'sale', 'payment'`;

export const workflows = pgTable(
  'workflows',
  {
    id: id(),
    name: text('name').notNull().unique(),
    /** 'sale' flows belong to a reservation; 'payment' flows to its broker commission. */
    kind: text('kind').notNull(),
    /** 'stage': tasks start when their stage becomes current; 'prerequisites': when their prerequisites complete. */
    taskOpening: text('task_opening').notNull(),
    /** One responsible per task (payments) or several (sale). */
    singleAssignee: boolean('single_assignee').notNull().default(false),
    createdAt: createdAt(),
  },
  () => [
    check('workflows_kind_check', sql.raw(`kind in (${WORKFLOW_KINDS_SQL})`)),
    check('workflows_task_opening_check', sql`task_opening in ('stage', 'prerequisites')`),
  ],
);

export const workflowStages = pgTable(
  'workflow_stages',
  {
    id: id(),
    workflowId: uuid('workflow_id')
      .notNull()
      .references(() => workflows.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    sortOrder: integer('sort_order').notNull(),
    /**
     * What a unit of the reservation shows while its sale flow stands in this stage ('Reservada',
     * 'Promesada', 'Escriturada'); empty for payment flows' stages. Read by the view `unit_statuses`
     * (migration 0046): the rule is keyed on this, never on the stage's name.
     */
    unitStatus: text('unit_status'),
  },
  (t) => [
    uniqueIndex('workflow_stages_order_key').on(t.workflowId, t.sortOrder),
    check(
      'workflow_stages_unit_status_check',
      sql`${t.unitStatus} is null or ${t.unitStatus} in ('Reservada', 'Promesada', 'Escriturada')`,
    ),
  ],
);

export const workflowTasks = pgTable(
  'workflow_tasks',
  {
    id: id(),
    stageId: uuid('stage_id')
      .notNull()
      .references(() => workflowStages.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    sortOrder: integer('sort_order').notNull(),
    /** Deadline in days (payment tasks); empty for the sale tasks. */
    daysToComplete: integer('days_to_complete'),
    /** Given to the reservation's seller when the flow is created (the three COF tasks). */
    assignToSeller: boolean('assign_to_seller').notNull().default(false),
    /** An approval ('VB …', 'Aprobación de Entrada …'): listed in the approvals inbox. */
    isApproval: boolean('is_approval').notNull().default(false),
    /** No longer part of the business's flow: kept for the flows that have it, left out of settings and reports. */
    isRetired: boolean('is_retired').notNull().default(false),
    /** The broker's invoice is recorded here and checked against the payment before it completes (0039). */
    recordsBrokerInvoice: boolean('records_broker_invoice').notNull().default(false),
  },
  (t) => [
    uniqueIndex('workflow_tasks_order_key').on(t.stageId, t.sortOrder),
    index('workflow_tasks_name_idx').on(t.name),
    check('workflow_tasks_days_check', sql`${t.daysToComplete} is null or ${t.daysToComplete} >= 0`),
  ],
);

/** A task opens only when every one of its prerequisite tasks is completed (prerequisite-opened flows). */
export const workflowTaskPrerequisites = pgTable(
  'workflow_task_prerequisites',
  {
    taskId: uuid('task_id')
      .notNull()
      .references(() => workflowTasks.id, { onDelete: 'cascade' }),
    prerequisiteTaskId: uuid('prerequisite_task_id')
      .notNull()
      .references(() => workflowTasks.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.taskId, t.prerequisiteTaskId] }),
    check('workflow_task_prerequisites_not_self', sql`${t.taskId} <> ${t.prerequisiteTaskId}`),
  ],
);

/** Default assignees of a task (Configuración Flujo Venta: several; Flujo Pago: one). */
export const workflowTaskDefaultAssignees = pgTable(
  'workflow_task_default_assignees',
  {
    taskId: uuid('task_id')
      .notNull()
      .references(() => workflowTasks.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    createdBy: uuid('created_by').references(() => profiles.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.taskId, t.userId] })],
);

/**
 * A flow: the sale flow of a reservation, or a payment flow of its broker commission (the first, and
 * the second when the commission is paid in two). `kind` repeats the workflow's kind so that the
 * one-per-subject rules can be unique indexes.
 */
export const flows = pgTable(
  'flows',
  {
    id: id(),
    workflowId: uuid('workflow_id')
      .notNull()
      .references(() => workflows.id, { onDelete: 'restrict' }),
    kind: text('kind').notNull(),
    reservationId: uuid('reservation_id')
      .notNull()
      .references(() => reservations.id, { onDelete: 'cascade' }),
    brokerCommissionId: uuid('broker_commission_id').references(() => brokerCommissions.id, {
      onDelete: 'cascade',
    }),
    isSecondPayment: boolean('is_second_payment').notNull().default(false),
    currentStageId: uuid('current_stage_id').references(() => workflowStages.id, { onDelete: 'set null' }),
    status: text('status').notNull(),
    startedAt: instant('started_at'),
    completedAt: instant('completed_at'),
    createdBy: uuid('created_by').references(() => profiles.id, { onDelete: 'set null' }),
    updatedBy: uuid('updated_by').references(() => profiles.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
  },
  (t) => [
    // One sale flow per reservation; one first and one second payment flow per commission.
    uniqueIndex('flows_sale_reservation_key').on(t.reservationId).where(sql`${t.kind} = 'sale'`),
    uniqueIndex('flows_payment_commission_key')
      .on(t.brokerCommissionId, t.isSecondPayment)
      .where(sql`${t.kind} = 'payment'`),
    index('flows_reservation_idx').on(t.reservationId),
    index('flows_status_idx').on(t.status),
    index('flows_payment_started_idx').on(t.startedAt.desc()).where(sql`${t.kind} = 'payment'`),
    // 'Informe de Pagos Brokers' (decision 0023): the few payment flows in progress, without reading
    // every flow, with what the report reads of them (its days count from the flow's start), so the
    // page's join reads the index alone.
    index('flows_payment_in_progress_idx')
      .on(t.id, t.startedAt, t.createdAt, t.reservationId, t.isSecondPayment)
      .where(sql`${t.kind} = 'payment' and ${t.status} = 'in_progress'`),
    check('flows_kind_check', sql.raw(`kind in (${WORKFLOW_KINDS_SQL})`)),
    check('flows_status_check', sql.raw(`status in (${FLOW_STATUSES_SQL})`)),
    check(
      'flows_subject_check',
      sql`(${t.kind} = 'sale' and ${t.brokerCommissionId} is null and not ${t.isSecondPayment})
        or (${t.kind} = 'payment' and ${t.brokerCommissionId} is not null)`,
    ),
  ],
);

export const flowTasks = pgTable(
  'flow_tasks',
  {
    id: id(),
    flowId: uuid('flow_id')
      .notNull()
      .references(() => flows.id, { onDelete: 'cascade' }),
    taskId: uuid('task_id')
      .notNull()
      .references(() => workflowTasks.id, { onDelete: 'restrict' }),
    status: text('status').notNull(),
    startedAt: instant('started_at'),
    completedAt: instant('completed_at'),
    /** Who completed (approved) it: a completed task keeps no assignees. */
    completedBy: uuid('completed_by').references(() => profiles.id, { onDelete: 'set null' }),
    /** The definition's deadline when the flow was created (a later change of the definition does not move it). */
    daysToComplete: integer('days_to_complete'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
  },
  (t) => [
    uniqueIndex('flow_tasks_flow_task_key').on(t.flowId, t.taskId),
    // 'Informe de Pagos Brokers' (decision 0023): the open task rows of a task definition — a range
    // per payment task, its flow beside it for the join —, instead of every task row of the flows.
    index('flow_tasks_open_idx').on(t.taskId, t.flowId).where(sql`${t.status} in ('pending', 'in_progress')`),
    check('flow_tasks_status_check', sql.raw(`status in (${TASK_STATUSES_SQL})`)),
    check('flow_tasks_completion_check', sql`(${t.status} = 'completed') = (${t.completedAt} is not null)`),
  ],
);

/** Who works on a task: several users on sale tasks, one on payment tasks. Completing removes them. */
export const flowTaskAssignees = pgTable(
  'flow_task_assignees',
  {
    flowTaskId: uuid('flow_task_id')
      .notNull()
      .references(() => flowTasks.id, { onDelete: 'cascade' }),
    /** The task row's flow, copied: a list's assignees of a flow are one index read, not one per task. */
    flowId: uuid('flow_id')
      .notNull()
      .references(() => flows.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    assignedBy: uuid('assigned_by').references(() => profiles.id, { onDelete: 'set null' }),
    assignedAt: instant('assigned_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.flowTaskId, t.userId] }),
    index('flow_task_assignees_user_idx').on(t.userId),
    index('flow_task_assignees_flow_idx').on(t.flowId),
  ],
);

export const flowTaskComments = pgTable(
  'flow_task_comments',
  {
    id: id(),
    flowTaskId: uuid('flow_task_id')
      .notNull()
      .references(() => flowTasks.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => profiles.id, { onDelete: 'set null' }),
    content: text('content').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('flow_task_comments_task_idx').on(t.flowTaskId, t.createdAt),
    check('flow_task_comments_content_not_blank', sql`btrim(${t.content}) <> ''`),
  ],
);

/**
 * An approval's rejection (workflows.md §4, issue 26): who, when and why, written by the workflow
 * engine with the task's blocked status in one transaction. The 'RECHAZO: …' comment the spec asks
 * for is written beside it, but a comment never makes a rejection.
 */
export const flowTaskRejections = pgTable(
  'flow_task_rejections',
  {
    id: id(),
    flowTaskId: uuid('flow_task_id')
      .notNull()
      .references(() => flowTasks.id, { onDelete: 'cascade' }),
    flowId: uuid('flow_id')
      .notNull()
      .references(() => flows.id, { onDelete: 'cascade' }),
    rejectedBy: uuid('rejected_by').references(() => profiles.id, { onDelete: 'set null' }),
    rejectedAt: instant('rejected_at').notNull(),
    reason: text('reason').notNull(),
  },
  (t) => [
    index('flow_task_rejections_task_idx').on(t.flowTaskId, t.rejectedAt),
    index('flow_task_rejections_flow_idx').on(t.flowId),
    check('flow_task_rejections_reason_not_blank', sql`btrim(${t.reason}) <> ''`),
  ],
);

/**
 * The users mentioned in a comment (spec: task_comment.mentioned_users), and each one's inbox of
 * mentions on /notificaciones (decision 0030): `created_at` is the comment's instant, `read_at` when
 * the mentioned user read it (null: unread, counted on their bell). A read mark is not logged.
 */
export const flowTaskCommentMentions = pgTable(
  'flow_task_comment_mentions',
  {
    commentId: uuid('comment_id')
      .notNull()
      .references(() => flowTaskComments.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    readAt: instant('read_at'),
  },
  (t) => [
    primaryKey({ columns: [t.commentId, t.userId] }),
    // A user's mentions newest first (the list), and their unread ones (the bell, 'Sin leer').
    index('flow_task_comment_mentions_user_newest_idx').on(t.userId, t.createdAt.desc(), t.commentId.desc()),
    index('flow_task_comment_mentions_unread_idx')
      .on(t.userId, t.createdAt.desc(), t.commentId.desc())
      .where(sql`${t.readAt} is null`),
  ],
);

/**
 * The task inboxes (decision 0021): one row per assignee of a pending task — not completed, not
 * blocked, of a flow in progress (workflows.md §6) —, with the keys the inboxes sort by: the
 * follow-up's fixed stage rank (spec part 2 §9), the stage's order in its workflow, the assignment
 * instant (newest first), then the flow and the task's order in its stage (one instant's cards — a
 * flow's tasks assigned together — in flow order, migration 0025). Kept by the triggers of migration
 * 0013 in the transaction of every change to flows, task rows and assignees, whoever writes; the
 * notifications and follow-up pages read their keyset pages off its indexes instead of joining and
 * sorting every open task.
 */
export const taskInbox = pgTable(
  'task_inbox',
  {
    flowTaskId: uuid('flow_task_id')
      .notNull()
      .references(() => flowTasks.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    flowId: uuid('flow_id')
      .notNull()
      .references(() => flows.id, { onDelete: 'cascade' }),
    stageName: text('stage_name').notNull(),
    /** Position in the follow-up's fixed stage order (1-13); 14 for a stage it does not name. */
    stageRank: smallint('stage_rank').notNull(),
    stageOrder: integer('stage_order').notNull(),
    assignedAt: instant('assigned_at').notNull(),
    /** The task's order in its stage (`workflow_tasks.sort_order`): ties of one instant in flow order. */
    taskOrder: integer('task_order').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.flowTaskId, t.userId] }),
    // A page reads (stage order ascending, newest first; one instant's cards by flow, in the flow's
    // task order) as one backward scan of a group's range: the stage and task orders are indexed
    // negated so that the keyset is one row comparison.
    index('task_inbox_user_idx').on(
      t.userId,
      t.stageRank,
      t.stageName,
      sql`(-${t.stageOrder})`,
      t.assignedAt,
      t.flowId,
      sql`(-${t.taskOrder})`,
      t.flowTaskId,
    ),
    index('task_inbox_all_idx').on(
      t.stageRank,
      t.stageName,
      sql`(-${t.stageOrder})`,
      t.assignedAt,
      t.flowId,
      sql`(-${t.taskOrder})`,
      t.flowTaskId,
      t.userId,
    ),
    index('task_inbox_flow_idx').on(t.flowId),
  ],
);

// ---------------------------------------------------------------------------------------------
// Settings of the flows

/** The seller preselected on new reservations: at most one row. */
export const defaultSeller = pgTable(
  'default_seller',
  {
    id: id(),
    singleton: boolean('singleton').notNull().default(true).unique(),
    userId: uuid('user_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    updatedBy: uuid('updated_by').references(() => profiles.id, { onDelete: 'set null' }),
    updatedAt: updatedAt(),
  },
  (t) => [check('default_seller_singleton_check', sql`${t.singleton}`)],
);

// ---------------------------------------------------------------------------------------------
// Dashboard rollups (decision 0015): the dashboard's all-time figures, kept by triggers in the
// transaction of every change to reservations, commissions, clients and brokers — whoever writes
// (a request, a job, a script, another server). The dashboard reads these few rows instead of
// aggregating the tables. Written only by the triggers of migration 0006.

const total = (name: string) => numeric(name, { precision: 18, scale: 2 });

/** Live (not rescinded) reservations per project. */
export const dashboardProjectFigures = pgTable('dashboard_project_figures', {
  projectId: uuid('project_id')
    .primaryKey()
    .references(() => projects.id, { onDelete: 'cascade' }),
  reserved: integer('reserved').notNull().default(0),
});

/** Per month of reservation date: live reservations and the commissions of those sold with a broker. */
export const dashboardMonthFigures = pgTable('dashboard_month_figures', {
  month: day('month').primaryKey(),
  reservations: integer('reservations').notNull().default(0),
  commissionAmount: total('commission_amount').notNull().default('0'),
});

/** Per broker: its live reservations, and the commissions (count and sum) on live reservations. */
export const dashboardBrokerFigures = pgTable(
  'dashboard_broker_figures',
  {
    brokerId: uuid('broker_id')
      .primaryKey()
      .references(() => brokers.id, { onDelete: 'cascade' }),
    reservations: integer('reservations').notNull().default(0),
    commissions: integer('commissions').notNull().default(0),
    commissionAmount: total('commission_amount').notNull().default('0'),
  },
  (t) => [index('dashboard_broker_figures_top_idx').on(t.commissionAmount.desc())],
);

/** Live clients and brokers: one row. */
export const dashboardCounts = pgTable(
  'dashboard_counts',
  {
    singleton: boolean('singleton').primaryKey().default(true),
    clients: integer('clients').notNull().default(0),
    brokers: integer('brokers').notNull().default(0),
  },
  (t) => [check('dashboard_counts_singleton_check', sql`${t.singleton}`)],
);

// ---------------------------------------------------------------------------------------------
// Stored files (decision 0016): uploaded images, re-encoded, kept in the database itself — in the
// transaction of the record that points to them, in its backups, reachable by every server.
// Written only by features/files.

/** bytea as a Buffer on both engines (PGlite hands back a plain Uint8Array). */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) =>
    Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength),
});

export const storedFiles = pgTable('stored_files', {
  id: id(),
  /** The server-made name in the public URL (`<uuid>.webp`); never reused. */
  name: text('name').notNull().unique(),
  contentType: text('content_type').notNull(),
  bytes: bytea('bytes').notNull(),
  byteSize: integer('byte_size').notNull(),
  width: integer('width').notNull(),
  height: integer('height').notNull(),
  createdBy: uuid('created_by').references(() => profiles.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
});

// ---------------------------------------------------------------------------------------------
// Audit trail (decision 0024): one append-only row per insert, update and delete of a business
// table, written by the triggers of migration 0017 in the transaction of the change (so a change that
// does not commit leaves none), and the sign-ins and sign-outs as events. The database refuses UPDATE,
// DELETE and TRUNCATE on it. Nothing but those triggers and `features/audit` writes it.

export const auditLog = pgTable(
  'audit_log',
  {
    /** Ascending in insertion order: the log's newest-first order and its keyset. */
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** The transaction's instant (every row of one change shares it). */
    occurredAt: instant('occurred_at').notNull().defaultNow(),
    /** The signed-in user; null is 'sistema' (migrations, the generator, operators' scripts). */
    actorId: uuid('actor_id'),
    /** The HTTP request that made the change, when one did. */
    requestId: text('request_id'),
    /** insert, update, delete; sign_in, sign_out for session events. */
    action: text('action').notNull(),
    /** The table of the changed row ('sessions' for session events). */
    tableName: text('table_name').notNull(),
    /** The row's key as text (composite keys joined by ':'). */
    recordId: text('record_id').notNull(),
    /** The record whose 'Historial' shows the row: a reservation for its commission, a flow for its tasks. */
    rootTable: text('root_table').notNull(),
    rootId: uuid('root_id'),
    /** Changed fields before the change (the whole row for a delete); money as decimal strings. */
    before: jsonb('before'),
    /** Changed fields after the change (the whole row for an insert). Secrets never: '[oculto]'. */
    after: jsonb('after'),
  },
  (t) => [
    // 'Historial' of one record, newest first.
    index('audit_log_root_idx').on(t.rootId, t.id.desc()),
    // Auditoría filtered by user, by kind of record, by date range.
    index('audit_log_actor_idx').on(t.actorId, t.id.desc()),
    index('audit_log_table_idx').on(t.rootTable, t.id.desc()),
    index('audit_log_occurred_idx').on(t.occurredAt.desc(), t.id.desc()),
    check(
      'audit_log_action_check',
      sql`${t.action} in ('insert', 'update', 'delete', 'sign_in', 'sign_out', 'export', 'redact', 'read_blocked')`,
    ),
    // A suppression redacts every comment's history and every export's filters (decision 0027).
    index('audit_log_comments_idx').on(t.id).where(sql`${t.tableName} = 'flow_task_comments'`),
    index('audit_log_exports_idx').on(t.id).where(sql`${t.action} = 'export'`),
    // The Auditoría's text search (issue 61, decision 0076): the values folded as the search folds
    // its words (audit_search_text, migration 0050), by trigram, so a word is found through the index
    // instead of decoding every row of the window.
    index('audit_log_search_trgm_idx').using(
      'gin',
      sql`audit_search_text(${t.before}, ${t.after}) gin_trgm_ops`,
    ),
  ],
);

// ---------------------------------------------------------------------------------------------
// E-mail notices (DESIGN §18, decision 0035). Written only by features/mail.

const MAIL_KINDS_SQL = `'approval', 'mention', 'notices', 'paymentCompleted', 'bankAccount', 'digest', 'reminder', 'test', 'portalInvitation'`;
const MAIL_STATUSES_SQL = `'pending', 'sent', 'failed', 'discarded'`;

/**
 * The outbox: one row per message, written in the transaction of the change that causes it (a
 * rolled-back change leaves none). `notices` holds what the message tells (the facts, not the text:
 * the text is composed when it is sent). A user's grouped notices collect in their one `collecting`
 * message until its `send_after` (15 minutes after the first); the sender claims due rows with
 * FOR UPDATE SKIP LOCKED and a lease (`next_attempt_at`, `claim_token`), so two instances never send one twice.
 */
export const mailMessages = pgTable(
  'mail_messages',
  {
    id: id(),
    kind: text('kind').notNull(),
    /** The staff user it is for; null for an outside address (a broker's KAM). */
    userId: uuid('user_id').references(() => profiles.id, { onDelete: 'set null' }),
    /** The address it went (or goes) to: an outside recipient's from the start, a user's when sent. */
    toAddress: text('to_address'),
    notices: jsonb('notices').notNull().default(sql`'[]'::jsonb`),
    noticeCount: integer('notice_count').notNull().default(1),
    status: text('status').notNull().default('pending'),
    /** The user's open group (grouped notices join it until it is sent). */
    collecting: boolean('collecting').notNull().default(false),
    /** Not sent before (grouped notices wait for their 15 minutes). */
    sendAfter: instant('send_after').notNull(),
    attempts: integer('attempts').notNull().default(0),
    /**
     * When the sender may take it next: the back-off after a failed attempt, or the lease of the
     * instance sending it (a crashed sender's rows are taken again when it ends).
     */
    nextAttemptAt: instant('next_attempt_at').notNull(),
    /** The claim of the instance sending it: only that claim may record the outcome. */
    claimToken: uuid('claim_token'),
    subject: text('subject'),
    /** The SMTP server's answer to the last failed attempt, or why it was discarded. */
    lastError: text('last_error'),
    sentAt: instant('sent_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('mail_messages_kind_check', sql.raw(`kind in (${MAIL_KINDS_SQL})`)),
    check('mail_messages_status_check', sql.raw(`status in (${MAIL_STATUSES_SQL})`)),
    // The sender's claim: due pending rows in order.
    index('mail_messages_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    // One open group per user.
    uniqueIndex('mail_messages_collecting_key').on(t.userId).where(sql`${t.collecting}`),
    // Configuración → Correos: newest first, by state.
    index('mail_messages_created_idx').on(t.createdAt.desc(), t.id.desc()),
    index('mail_messages_status_idx').on(t.status, t.createdAt.desc(), t.id.desc()),
    index('mail_messages_user_idx').on(t.userId),
  ],
);

/** Which notices a user gets by e-mail; no row means every one. */
export const mailPreferences = pgTable('mail_preferences', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => profiles.id, { onDelete: 'cascade' }),
  assigned: boolean('assigned').notNull().default(true),
  approvals: boolean('approvals').notNull().default(true),
  mentions: boolean('mentions').notNull().default(true),
  rejections: boolean('rejections').notNull().default(true),
  reminders: boolean('reminders').notNull().default(true),
  digest: boolean('digest').notNull().default(true),
  updatedAt: updatedAt(),
});

/** Chilean holidays (business days for the digest and the reminders); seeded 2026-2027, edited in Configuración. */
export const holidays = pgTable('holidays', {
  day: day('day').primaryKey(),
  name: text('name').notNull(),
  createdBy: uuid('created_by').references(() => profiles.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
});

/** Scheduled jobs run once per day whatever the number of instances: the first to insert the row runs it. */
export const scheduledRuns = pgTable(
  'scheduled_runs',
  {
    job: text('job').notNull(),
    runDate: day('run_date').notNull(),
    ranAt: instant('ran_at').notNull().defaultNow(),
    /** How many messages the run wrote. */
    messages: integer('messages').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.job, t.runDate] })],
);
// Imports (issue 32, decision 0033): a run per uploaded file, what each of its rows changed (so
// 'Deshacer importación' restores exactly), and the column mapping last used per kind. Not audited
// row by row: a run is the record of the audited changes it made (their `request_id` is the run's id).

export const importRuns = pgTable(
  'import_runs',
  {
    id: id(),
    /** 'clients', 'brokers', 'reservations' (shared/schemas/imports.ts). */
    kind: text('kind').notNull(),
    fileName: text('file_name').notNull(),
    /** SHA-256 of the file's bytes, hex. */
    fileHash: text('file_hash').notNull(),
    /** How many parts its file was stored in (`import_run_file_parts`): the file is whole when all are. */
    fileParts: integer('file_parts').notNull().default(1),
    sheetName: text('sheet_name'),
    /**
     * The row the header was read from by the last dry run or apply (found below a title block, or
     * chosen on screen or with --header-row): the errors workbook and the run's answer read it again.
     */
    headerRow: integer('header_row'),
    /** The field → column mapping of the last dry run or apply. */
    mapping: jsonb('mapping'),
    /** uploaded → applying → applied | failed | cancelled; applied → undone. */
    status: text('status').notNull().default('uploaded'),
    onlyValidRows: boolean('only_valid_rows').notNull().default(false),
    totalRows: integer('total_rows').notNull().default(0),
    processedRows: integer('processed_rows').notNull().default(0),
    createdCount: integer('created_count').notNull().default(0),
    updatedCount: integer('updated_count').notNull().default(0),
    unchangedCount: integer('unchanged_count').notNull().default(0),
    errorCount: integer('error_count').notNull().default(0),
    cancelRequested: boolean('cancel_requested').notNull().default(false),
    /** Why an apply failed (an error code of shared/errors.ts). */
    failure: text('failure'),
    createdBy: uuid('created_by').references(() => profiles.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    startedAt: instant('started_at'),
    finishedAt: instant('finished_at'),
    undoneAt: instant('undone_at'),
    undoneBy: uuid('undone_by').references(() => profiles.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('import_runs_newest_idx').on(t.createdAt.desc(), t.id.desc()),
    check(
      'import_runs_status_check',
      sql`${t.status} in ('uploaded', 'applying', 'applied', 'failed', 'cancelled', 'undone')`,
    ),
    check('import_runs_kind_check', sql`${t.kind} in ('clients', 'brokers', 'reservations', 'units')`),
  ],
);

/**
 * A run's file in parts of at most 256 KiB, each written and read by a statement of its own: on the
 * embedded database a statement holds the process, and an 8.7 MB file in one held it ~0.3 s.
 */
export const importRunFileParts = pgTable(
  'import_run_file_parts',
  {
    runId: uuid('run_id')
      .notNull()
      .references(() => importRuns.id, { onDelete: 'cascade' }),
    part: integer('part').notNull(),
    bytes: bytea('bytes').notNull(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.part] })],
);

/**
 * Whom a run's stored file names (issue 54, decision 0062): keyed hashes (HMAC-SHA-256 with the row's
 * own salt, the first 16 bytes, sorted and joined) of every valid RUT and e-mail address found in the
 * file at its upload. A suppression deletes the stored files naming the holder even when their run
 * changed none of the holder's records; the row goes with the file (retention or suppression).
 */
export const importRunSubjects = pgTable('import_run_subjects', {
  runId: uuid('run_id')
    .primaryKey()
    .references(() => importRuns.id, { onDelete: 'cascade' }),
  salt: text('salt').notNull(),
  hashes: bytea('hashes').notNull(),
});

/** One record a run created or updated; `before` is the whole row before an update (null for a creation). */
export const importRunRecords = pgTable(
  'import_run_records',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    runId: uuid('run_id')
      .notNull()
      .references(() => importRuns.id, { onDelete: 'cascade' }),
    tableName: text('table_name').notNull(),
    recordId: uuid('record_id').notNull(),
    action: text('action').notNull(),
    before: jsonb('before'),
    /** The file's row (1-based, the header is row 1) that made the change. */
    rowNumber: integer('row_number').notNull(),
  },
  (t) => [
    index('import_run_records_run_idx').on(t.runId, t.id),
    index('import_run_records_record_idx').on(t.recordId),
    check('import_run_records_action_check', sql`${t.action} in ('insert', 'update')`),
  ],
);

/** The mapping last used per kind: folded header text → field key. */
export const importMappings = pgTable('import_mappings', {
  kind: text('kind').primaryKey(),
  columns: jsonb('columns').notNull(),
  updatedBy: uuid('updated_by').references(() => profiles.id, { onDelete: 'set null' }),
  updatedAt: updatedAt(),
});

// ---------------------------------------------------------------------------------------------
// Documents (issue 35, decision 0037): each reservation's papers, in the database on both engines.
// A document has versions (a replacement is a new version, the old ones kept); a version's bytes are
// chunks of at most DOCUMENT_CHUNK_BYTES, written and read one by one, so no request holds a whole
// file in memory. Types are data (Configuración → Documentos): who may see them, and the workflow
// tasks that cannot be completed without one.

export const documentTypes = pgTable(
  'document_types',
  {
    id: id(),
    name: text('name').notNull(),
    /** Seen only by administrators and the payments team ('Gestor de Pagos'); otherwise by all staff. */
    isRestricted: boolean('is_restricted').notNull().default(false),
    /**
     * The broker's invoice: an invoice task whose checklist requires this type needs the invoice
     * recorded too, not only its paper (decision 0039). At most one type is.
     */
    isBrokerInvoice: boolean('is_broker_invoice').notNull().default(false),
    sortOrder: integer('sort_order').notNull().default(0),
    createdBy: uuid('created_by').references(() => profiles.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedBy: uuid('updated_by').references(() => profiles.id, { onDelete: 'set null' }),
    updatedAt: updatedAt(),
    version: version(),
  },
  (t) => [
    uniqueIndex('document_types_name_key').on(sql`lower(${t.name})`),
    uniqueIndex('document_types_broker_invoice_key').on(t.isBrokerInvoice).where(sql`${t.isBrokerInvoice}`),
    check('document_types_name_check', sql`length(trim(${t.name})) between 1 and 80`),
  ],
);

/** A workflow task that cannot be completed while its reservation has no document of the type. */
export const documentTypeRequirements = pgTable(
  'document_type_requirements',
  {
    documentTypeId: uuid('document_type_id')
      .notNull()
      .references(() => documentTypes.id, { onDelete: 'cascade' }),
    workflowTaskId: uuid('workflow_task_id')
      .notNull()
      .references(() => workflowTasks.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.documentTypeId, t.workflowTaskId] }),
    index('document_type_requirements_task_idx').on(t.workflowTaskId),
  ],
);

export const documents = pgTable(
  'documents',
  {
    id: id(),
    reservationId: uuid('reservation_id')
      .notNull()
      .references(() => reservations.id, { onDelete: 'cascade' }),
    documentTypeId: uuid('document_type_id')
      .notNull()
      .references(() => documentTypes.id, { onDelete: 'restrict' }),
    /** The name the staff gives it (the uploaded file's name at first; 'Renombrar' changes it). */
    name: text('name').notNull(),
    /** The number of its newest version (1, 2, …): what is previewed and downloaded. */
    currentVersion: integer('current_version').notNull().default(1),
    createdBy: uuid('created_by').references(() => profiles.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedBy: uuid('updated_by').references(() => profiles.id, { onDelete: 'set null' }),
    updatedAt: updatedAt(),
    version: version(),
  },
  (t) => [
    index('documents_reservation_idx').on(t.reservationId, t.createdAt),
    index('documents_type_idx').on(t.documentTypeId, t.reservationId),
    check('documents_name_check', sql`length(trim(${t.name})) between 1 and 200`),
  ],
);

export const documentVersions = pgTable(
  'document_versions',
  {
    id: id(),
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    number: integer('number').notNull(),
    /** The uploaded file's name (what a download is saved as). */
    fileName: text('file_name').notNull(),
    /** Judged by the bytes (file-type), never the name or the browser's word. */
    contentType: text('content_type').notNull(),
    byteSize: integer('byte_size').notNull(),
    sha256: text('sha256').notNull(),
    /** A PDF or an image the browser may show in a sandboxed frame (an encrypted or damaged PDF: no). */
    isPreviewable: boolean('is_previewable').notNull(),
    createdBy: uuid('created_by').references(() => profiles.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('document_versions_number_key').on(t.documentId, t.number),
    check('document_versions_number_check', sql`${t.number} >= 1`),
    check('document_versions_size_check', sql`${t.byteSize} between 1 and 20971520`),
  ],
);

export const documentChunks = pgTable(
  'document_chunks',
  {
    versionId: uuid('version_id')
      .notNull()
      .references(() => documentVersions.id, { onDelete: 'cascade' }),
    /** 0, 1, 2, …: the bytes in order. */
    seq: integer('seq').notNull(),
    bytes: bytea('bytes').notNull(),
  },
  (t) => [primaryKey({ columns: [t.versionId, t.seq] })],
);

// ---------------------------------------------------------------------------------------------
// The broker's invoice (issue 33, decision 0039)

const BROKER_INVOICE_KINDS_SQL = `'taxed', 'exempt', 'fees'`;
const pesos = (name: string) => numeric(name, { precision: 14, scale: 0 });

/**
 * The broker's document for one payment, recorded on the task that receives it: a factura
 * electrónica afecta ('taxed') or exenta ('exempt') — net, IVA, total — or a boleta de honorarios
 * ('fees') — gross, withholding, net to pay. Whole pesos. A mismatch with the payment is accepted by
 * an administrator with a reason; any change of the figures takes the acceptance back.
 */
export const brokerInvoices = pgTable(
  'broker_invoices',
  {
    id: id(),
    flowTaskId: uuid('flow_task_id')
      .notNull()
      .unique()
      .references(() => flowTasks.id, { onDelete: 'cascade' }),
    /** The task's flow, kept for the 'Historial' of the payment flow (the audit's root). */
    flowId: uuid('flow_id')
      .notNull()
      .references(() => flows.id, { onDelete: 'cascade' }),
    brokerId: uuid('broker_id')
      .notNull()
      .references(() => brokers.id, { onDelete: 'restrict' }),
    kind: text('kind').notNull(),
    issuerRut: text('issuer_rut').notNull(),
    folio: text('folio').notNull(),
    issueDate: day('issue_date').notNull(),
    /** When the office received it: Ley 19.983's 8 days to claim run from here. */
    receivedDate: day('received_date').notNull(),
    netAmount: pesos('net_amount'),
    vatAmount: pesos('vat_amount'),
    totalAmount: pesos('total_amount'),
    grossAmount: pesos('gross_amount'),
    withholdingAmount: pesos('withholding_amount'),
    payableAmount: pesos('payable_amount'),
    /**
     * 'manual' (typed), 'xml' (read from the SII's DTE) or 'import' (an invoice number of an imported
     * paid payment, its amounts derived from the payment: decision 0063).
     */
    source: text('source').notNull(),
    mismatchAcceptedBy: uuid('mismatch_accepted_by').references(() => profiles.id, { onDelete: 'set null' }),
    mismatchAcceptedAt: instant('mismatch_accepted_at'),
    mismatchReason: text('mismatch_reason'),
    createdBy: uuid('created_by').references(() => profiles.id, { onDelete: 'set null' }),
    updatedBy: uuid('updated_by').references(() => profiles.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
  },
  (t) => [
    // SII folios are numbered per issuer and document type: the same broker's folio once per kind.
    uniqueIndex('broker_invoices_folio_key').on(t.brokerId, t.kind, t.folio),
    index('broker_invoices_flow_idx').on(t.flowId),
    check('broker_invoices_kind_check', sql.raw(`kind in (${BROKER_INVOICE_KINDS_SQL})`)),
    check('broker_invoices_source_check', sql`${t.source} in ('manual', 'xml', 'import')`),
    check('broker_invoices_folio_check', sql`${t.folio} ~ '^[1-9][0-9]{0,9}$'`),
    check('broker_invoices_received_check', sql`${t.receivedDate} >= ${t.issueDate}`),
    check(
      'broker_invoices_amounts_check',
      sql`(${t.kind} in ('taxed', 'exempt')
            and ${t.netAmount} >= 0 and ${t.vatAmount} >= 0 and ${t.totalAmount} >= 0
            and ${t.grossAmount} is null and ${t.withholdingAmount} is null and ${t.payableAmount} is null)
        or (${t.kind} = 'fees'
            and ${t.grossAmount} >= 0 and ${t.withholdingAmount} >= 0 and ${t.payableAmount} >= 0
            and ${t.netAmount} is null and ${t.vatAmount} is null and ${t.totalAmount} is null)`,
    ),
    check(
      'broker_invoices_acceptance_check',
      sql`(${t.mismatchAcceptedAt} is null) = (${t.mismatchReason} is null)`,
    ),
  ],
);

/**
 * The boleta de honorarios' withholding by year (Ley 21.133's schedule): data, seeded and changed by
 * migrations, read by the invoice check. A year past the last row uses the last row's rate.
 */
export const feeWithholdingRates = pgTable(
  'fee_withholding_rates',
  {
    year: smallint('year').primaryKey(),
    /** A percentage with two decimals: 15.25 is 15,25 %. */
    rate: numeric('rate', { precision: 5, scale: 2 }).notNull(),
  },
  (t) => [
    check('fee_withholding_rates_year_check', sql`${t.year} between 2000 and 2100`),
    check('fee_withholding_rates_rate_check', sql`${t.rate} > 0 and ${t.rate} < 100`),
  ],
);

/**
 * 'Nómina de pago' (issue 33, decision 0040): payments gathered to be paid by one bank file. Open
 * while it is prepared and sent; 'paid' once marked paid with a date (each payment's last task
 * completed through the workflow engine in that transaction), or 'cancelled' (its payments free again).
 */
export const paymentBatches = pgTable(
  'payment_batches',
  {
    id: id(),
    /** 'Nómina N° 12': a number people can say. */
    number: integer('number').notNull().unique().generatedAlwaysAsIdentity(),
    status: text('status').notNull().default('open'),
    paymentCount: integer('payment_count').notNull(),
    totalClp: pesos('total_clp').notNull(),
    paidDate: day('paid_date'),
    paidBy: uuid('paid_by').references(() => profiles.id, { onDelete: 'set null' }),
    paidAt: instant('paid_at'),
    cancelledBy: uuid('cancelled_by').references(() => profiles.id, { onDelete: 'set null' }),
    cancelledAt: instant('cancelled_at'),
    createdBy: uuid('created_by').references(() => profiles.id, { onDelete: 'set null' }),
    updatedBy: uuid('updated_by').references(() => profiles.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
  },
  (t) => [
    index('payment_batches_created_idx').on(t.createdAt, t.id),
    check('payment_batches_status_check', sql`${t.status} in ('open', 'paid', 'cancelled')`),
    check('payment_batches_count_check', sql`${t.paymentCount} > 0 and ${t.totalClp} >= 0`),
    check(
      'payment_batches_paid_check',
      sql`(${t.status} = 'paid') = (${t.paidDate} is not null) and (${t.paidDate} is null) = (${t.paidAt} is null)`,
    ),
  ],
);

/**
 * One payment of a batch, with the bank data and amount as the file carries them (copied when the
 * batch is made: the file sent is the file kept). `is_open` mirrors the batch's status so the
 * database holds a payment in at most one open batch.
 */
export const paymentBatchItems = pgTable(
  'payment_batch_items',
  {
    id: id(),
    batchId: uuid('batch_id')
      .notNull()
      .references(() => paymentBatches.id, { onDelete: 'cascade' }),
    /** The payment flow paid (the first or the second payment of a commission). */
    flowId: uuid('flow_id')
      .notNull()
      .references(() => flows.id, { onDelete: 'restrict' }),
    sortOrder: integer('sort_order').notNull(),
    isOpen: boolean('is_open').notNull().default(true),
    brokerId: uuid('broker_id')
      .notNull()
      .references(() => brokers.id, { onDelete: 'restrict' }),
    brokerRut: text('broker_rut').notNull(),
    brokerName: text('broker_name').notNull(),
    bankName: text('bank_name').notNull(),
    bankAccountType: text('bank_account_type').notNull(),
    bankAccountNumber: text('bank_account_number').notNull(),
    /** The account's holder as the file names the beneficiary (issue 53). */
    holderName: text('holder_name').notNull(),
    holderRut: text('holder_rut').notNull(),
    email: text('email'),
    amountClp: pesos('amount_clp').notNull(),
    reference: text('reference').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('payment_batch_items_open_flow_key').on(t.flowId).where(sql`${t.isOpen}`),
    uniqueIndex('payment_batch_items_batch_order_key').on(t.batchId, t.sortOrder),
    index('payment_batch_items_flow_idx').on(t.flowId),
    check('payment_batch_items_amount_check', sql`${t.amountClp} >= 0`),
  ],
);

/**
 * How money goes out (issue 53, decisions 0052 and 0053): one row. The pesos per UF of rounding a
 * payment's amount may differ from UF × the day's value without an administrator's acceptance; the
 * business days back the payments team may date a batch paid; the bank file's layout (null: the
 * generic one).
 */
export const paymentSettings = pgTable(
  'payment_settings',
  {
    id: boolean('id').primaryKey().default(true),
    tolerancePerUf: numeric('tolerance_per_uf', { precision: 14, scale: 2 }).notNull().default('1'),
    paidDateBusinessDays: integer('paid_date_business_days').notNull().default(5),
    bankFileLayout: jsonb('bank_file_layout'),
    updatedBy: uuid('updated_by').references(() => profiles.id, { onDelete: 'set null' }),
    updatedAt: updatedAt(),
    version: version(),
  },
  (t) => [
    check('payment_settings_single_row', sql`${t.id}`),
    check('payment_settings_tolerance_check', sql`${t.tolerancePerUf} >= 0 and ${t.tolerancePerUf} <= 1000`),
    check('payment_settings_days_check', sql`${t.paidDateBusinessDays} between 0 and 60`),
  ],
);

// ---------------------------------------------------------------------------------------------
// The buyer's account (issue 60, decision 0073): a reservation's payment plan, its lines, and the
// payments received. Amounts in UF carry four decimals (the pie's cuotas sum exactly to it).

const uf4 = (name: string) => numeric(name, { precision: 16, scale: 4 });

/**
 * A reservation's payment plan, built from its figures when the plan was made (reserva, promesa, pie in
 * N monthly cuotas, crédito, subsidio). One per reservation. An administrator may let 'PENDIENTE CARTA
 * PIE' complete without the pie paid, with a reason (`pie_waived_*`).
 */
export const buyerPlans = pgTable(
  'buyer_plans',
  {
    id: id(),
    reservationId: uuid('reservation_id')
      .notNull()
      .unique()
      .references(() => reservations.id, { onDelete: 'cascade' }),
    reservationAmount: uf4('reservation_amount').notNull(),
    promiseAmount: uf4('promise_amount').notNull(),
    downPaymentAmount: uf4('down_payment_amount').notNull(),
    installmentCount: integer('installment_count').notNull(),
    creditAmount: uf4('credit_amount').notNull(),
    subsidyAmount: uf4('subsidy_amount').notNull(),
    promiseDate: day('promise_date').notNull(),
    expectedDeedDate: day('expected_deed_date'),
    /** What the buyer has paid (UF, the payments not reversed), kept with every payment and reversal. */
    paidAmount: uf4('paid_amount').notNull().default('0'),
    pieWaivedReason: text('pie_waived_reason'),
    pieWaivedBy: uuid('pie_waived_by').references(() => profiles.id, { onDelete: 'set null' }),
    pieWaivedAt: instant('pie_waived_at'),
    createdBy: uuid('created_by').references(() => profiles.id, { onDelete: 'set null' }),
    updatedBy: uuid('updated_by').references(() => profiles.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
  },
  (t) => [
    check(
      'buyer_plans_amounts_check',
      sql`${t.reservationAmount} >= 0 and ${t.promiseAmount} >= 0 and ${t.downPaymentAmount} >= 0
        and ${t.creditAmount} >= 0 and ${t.subsidyAmount} >= 0 and ${t.paidAmount} >= 0`,
    ),
    check('buyer_plans_count_check', sql`${t.installmentCount} between 1 and 120`),
    check('buyer_plans_waiver_check', sql`(${t.pieWaivedReason} is null) = (${t.pieWaivedAt} is null)`),
  ],
);

/**
 * A line of the plan the buyer pays (reserva, promesa, each cuota of the pie), in the order payments
 * are applied (`sort_order`), with what the payments received pay of it (`paid_amount`, written with
 * every payment and reversal by the oldest-first allocation). `is_open` (not fully paid) is stored so
 * that 'Cuotas vencidas' reads the open lines off one partial index by due date.
 */
export const buyerPlanLines = pgTable(
  'buyer_plan_lines',
  {
    id: id(),
    planId: uuid('plan_id')
      .notNull()
      .references(() => buyerPlans.id, { onDelete: 'cascade' }),
    /** The plan's reservation, kept for the 'Historial' (the audit's root) and the overdue list's join. */
    reservationId: uuid('reservation_id')
      .notNull()
      .references(() => reservations.id, { onDelete: 'cascade' }),
    sortOrder: integer('sort_order').notNull(),
    kind: text('kind').notNull(),
    number: integer('number').notNull(),
    dueDate: day('due_date').notNull(),
    amount: uf4('amount').notNull(),
    paidAmount: uf4('paid_amount').notNull().default('0'),
    isOpen: boolean('is_open').notNull().default(true),
  },
  (t) => [
    uniqueIndex('buyer_plan_lines_plan_order_key').on(t.planId, t.sortOrder),
    // 'Cuotas vencidas': the open lines, oldest due first.
    index('buyer_plan_lines_open_due_idx').on(t.dueDate, t.id).where(sql`${t.isOpen}`),
    check('buyer_plan_lines_kind_check', sql`${t.kind} in ('reservation', 'promise', 'downPayment')`),
    check(
      'buyer_plan_lines_paid_check',
      sql`${t.amount} > 0 and ${t.paidAmount} >= 0 and ${t.paidAmount} <= ${t.amount}
        and ${t.isOpen} = (${t.paidAmount} < ${t.amount})`,
    ),
  ],
);

/**
 * A payment received from the buyer: the day, the UF it paid (entered in UF, or pesos at that day's UF
 * value, both kept), the means and the document's number. A returned cheque is reversed (never
 * deleted): who, when and why, and it stops counting.
 */
export const buyerPayments = pgTable(
  'buyer_payments',
  {
    id: id(),
    planId: uuid('plan_id')
      .notNull()
      .references(() => buyerPlans.id, { onDelete: 'cascade' }),
    reservationId: uuid('reservation_id')
      .notNull()
      .references(() => reservations.id, { onDelete: 'cascade' }),
    paidDate: day('paid_date').notNull(),
    amount: uf4('amount').notNull(),
    /** The pesos received when the payment was entered in pesos; null when entered in UF. */
    amountClp: numeric('amount_clp', { precision: 14, scale: 0 }),
    ufValue: money('uf_value'),
    means: text('means').notNull(),
    documentNumber: text('document_number').notNull(),
    reversedAt: instant('reversed_at'),
    reversedBy: uuid('reversed_by').references(() => profiles.id, { onDelete: 'set null' }),
    reversalReason: text('reversal_reason'),
    createdBy: uuid('created_by').references(() => profiles.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
  },
  (t) => [
    index('buyer_payments_plan_idx').on(t.planId, t.paidDate, t.createdAt),
    index('buyer_payments_reservation_idx').on(t.reservationId),
    check('buyer_payments_amount_check', sql`${t.amount} > 0`),
    check('buyer_payments_means_check', sql`${t.means} in ('transfer', 'bankDraft', 'cheque', 'card')`),
    check(
      'buyer_payments_clp_check',
      sql`(${t.amountClp} is null) = (${t.ufValue} is null) and (${t.amountClp} is null or ${t.amountClp} > 0)`,
    ),
    check('buyer_payments_reversal_check', sql`(${t.reversedAt} is null) = (${t.reversalReason} is null)`),
  ],
);

// ---------------------------------------------------------------------------------------------
// Quotes (issue 59, decisions 0071 and 0072): a prospect's quote for units of one project, priced
// from the price list in force with the payment plan of `shared/domain/payment-plan.ts`; it holds no
// unit. Its state is never stored: 'reservada' when it became a reservation, else 'vencida' once its
// last valid day (Santiago calendar) has passed, else 'vigente' (computed in SQL by the list).

/** Per project: how many days a quote is valid, and the most cuotas its pie may be paid in. */
export const quoteSettings = pgTable(
  'quote_settings',
  {
    projectId: uuid('project_id')
      .primaryKey()
      .references(() => projects.id, { onDelete: 'cascade' }),
    validityDays: integer('validity_days').notNull().default(10),
    maxInstallments: integer('max_installments').notNull().default(12),
    updatedBy: uuid('updated_by').references(() => profiles.id, { onDelete: 'set null' }),
    updatedAt: updatedAt(),
    version: version(),
  },
  (t) => [
    check('quote_settings_validity_check', sql`${t.validityDays} between 1 and 90`),
    check('quote_settings_installments_check', sql`${t.maxInstallments} between 1 and 120`),
  ],
);

export const quotes = pgTable(
  'quotes',
  {
    id: id(),
    /** 'Cotización N° 123': numbered in order of creation. */
    number: integer('number').notNull().unique().generatedAlwaysAsIdentity(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'restrict' }),
    /** Who quoted: a seller of the office. */
    sellerId: uuid('seller_id').references(() => profiles.id, { onDelete: 'set null' }),
    /** The broker agency that quoted, when a broker did (the portal, issue 58); null for the office. */
    brokerId: uuid('broker_id').references(() => brokers.id, { onDelete: 'restrict' }),
    prospectName: text('prospect_name').notNull(),
    prospectEmail: text('prospect_email').notNull(),
    prospectPhone: text('prospect_phone'),
    /** Normalised ('12345678-5'), optional until the prospect reserves. */
    prospectRut: text('prospect_rut'),
    searchText: text('search_text')
      .notNull()
      .generatedAlwaysAs(
        searchable(
          `prospect_name || ' ' || prospect_email || ' ' || coalesce(prospect_rut, '') || ' ' || coalesce(replace(prospect_rut, '-', ''), '')`,
        ),
      ),
    quoteDate: day('quote_date').notNull(),
    /** The last day it is valid: quote date + the project's validity days. */
    validUntil: day('valid_until').notNull(),
    /** The project's price list in force when it was made (null: none named its units). */
    priceListId: uuid('price_list_id').references(() => priceLists.id, { onDelete: 'restrict' }),
    ufDate: day('uf_date').notNull(),
    ufValue: money('uf_value').notNull(),
    apartmentPrice: money('apartment_price').notNull(),
    parkingPrice: money('parking_price').notNull(),
    storagePrice: money('storage_price').notNull(),
    columnDiscount: fraction('column_discount').notNull().default('0'),
    additionalDiscount: fraction('additional_discount').notNull().default('0'),
    otherDiscount: fraction('other_discount').notNull().default('0'),
    listPrice: money('list_price').notNull(),
    finalPrice: money('final_price').notNull(),
    reservationAmount: money('reservation_amount').notNull(),
    downPaymentFraction: fraction('down_payment_fraction').notNull(),
    downPayment: money('down_payment').notNull(),
    installments: integer('installments').notNull(),
    subsidyAmount: money('subsidy_amount').notNull().default('0'),
    creditAmount: money('credit_amount').notNull(),
    /** The reservation it became ('Reservar'); null while it has not. */
    reservationId: uuid('reservation_id').references(() => reservations.id, { onDelete: 'set null' }),
    reservedAt: instant('reserved_at'),
    /** The quote it was duplicated from, or that a 'Recotizar' replaced. */
    copiedFromId: uuid('copied_from_id'),
    sentCount: integer('sent_count').notNull().default(0),
    lastSentAt: instant('last_sent_at'),
    createdBy: uuid('created_by').references(() => profiles.id, { onDelete: 'set null' }),
    updatedBy: uuid('updated_by').references(() => profiles.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
  },
  (t) => [
    // The list, newest first; and its filters.
    index('quotes_newest_idx').on(t.createdAt.desc(), t.id.desc()),
    index('quotes_project_idx').on(t.projectId, t.createdAt.desc()),
    index('quotes_seller_idx').on(t.sellerId, t.createdAt.desc()),
    index('quotes_broker_idx').on(t.brokerId).where(sql`${t.brokerId} is not null`),
    index('quotes_reservation_idx').on(t.reservationId).where(sql`${t.reservationId} is not null`),
    index('quotes_valid_until_idx').on(t.validUntil),
    index('quotes_search_trgm_idx')
      .using('gin', sql`${t.searchText} gin_trgm_ops`)
      .with({ fastupdate: false }),
    check('quotes_prospect_name_not_blank', sql`btrim(${t.prospectName}) <> ''`),
    check('quotes_valid_until_check', sql`${t.validUntil} >= ${t.quoteDate}`),
    check('quotes_installments_check', sql`${t.installments} between 1 and 120`),
    check(
      'quotes_discounts_fraction',
      sql`${t.columnDiscount} between 0 and 1 and ${t.additionalDiscount} between 0 and 1
        and ${t.otherDiscount} between 0 and 1 and ${t.downPaymentFraction} between 0 and 1`,
    ),
    check(
      'quotes_amounts_non_negative',
      sql`${t.apartmentPrice} >= 0 and ${t.parkingPrice} >= 0 and ${t.storagePrice} >= 0
        and ${t.reservationAmount} >= 0 and ${t.subsidyAmount} >= 0 and ${t.creditAmount} >= 0`,
    ),
  ],
);

/** The units a quote names, with the price and list each was quoted at (a copy: prices change). */
export const quoteUnits = pgTable(
  'quote_units',
  {
    quoteId: uuid('quote_id')
      .notNull()
      .references(() => quotes.id, { onDelete: 'cascade' }),
    unitId: uuid('unit_id')
      .notNull()
      .references(() => units.id, { onDelete: 'restrict' }),
    kind: text('kind').notNull(),
    number: text('number').notNull(),
    price: money('price').notNull(),
    priceListId: uuid('price_list_id').references(() => priceLists.id, { onDelete: 'restrict' }),
  },
  (t) => [
    primaryKey({ columns: [t.quoteId, t.unitId] }),
    index('quote_units_unit_idx').on(t.unitId),
    check('quote_units_kind_check', sql.raw(`kind in (${UNIT_KINDS_SQL})`)),
  ],
);

// --- The brokers' portal (issue 58, decision 0069) ---------------------------------------------------

/**
 * People of one broker agency who sign in at /portal: never staff (no profile, no user type, no
 * actions of the catalogue). Invited by an administrator or the broker's KAM; the password is set by
 * the invitation's link (a null hash: invited, not yet signed in).
 */
export const brokerUsers = pgTable(
  'broker_users',
  {
    id: id(),
    brokerId: uuid('broker_id')
      .notNull()
      .references(() => brokers.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash'),
    isActive: boolean('is_active').notNull().default(true),
    invitedBy: uuid('invited_by').references(() => profiles.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
  },
  (t) => [
    // One portal account per address, whatever its case.
    uniqueIndex('broker_users_email_key').on(sql`lower(${t.email})`),
    index('broker_users_broker_idx').on(t.brokerId, t.name, t.id),
  ],
);

/**
 * Single-use links (an invitation, a new password): only the SHA-256 of the token is kept; used or
 * expired links are refused.
 */
export const brokerUserTokens = pgTable(
  'broker_user_tokens',
  {
    id: text('id').primaryKey(),
    brokerUserId: uuid('broker_user_id')
      .notNull()
      .references(() => brokerUsers.id, { onDelete: 'cascade' }),
    purpose: text('purpose').$type<'invitation' | 'reset'>().notNull(),
    expiresAt: instant('expires_at').notNull(),
    usedAt: instant('used_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('broker_user_tokens_user_idx').on(t.brokerUserId),
    check('broker_user_tokens_purpose_check', sql`${t.purpose} in ('invitation', 'reset')`),
  ],
);

/** A broker user's sessions: the SHA-256 of the cookie token, bound to the user's broker. */
export const brokerSessions = pgTable(
  'broker_sessions',
  {
    id: text('id').primaryKey(),
    brokerUserId: uuid('broker_user_id')
      .notNull()
      .references(() => brokerUsers.id, { onDelete: 'cascade' }),
    brokerId: uuid('broker_id')
      .notNull()
      .references(() => brokers.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastSeenAt: instant('last_seen_at').notNull().defaultNow(),
    expiresAt: instant('expires_at').notNull(),
    userAgent: text('user_agent'),
    ip: text('ip'),
  },
  (t) => [index('broker_sessions_user_idx').on(t.brokerUserId)],
);
