/**
 * One writer per table (DESIGN §21, decision 0056): every table of `schema.ts` has one owning feature
 * (`src/server/features/<owner>/`), whose code is the only code that writes it. Other features — the
 * imports, the payment batches, the data rights — call the owner's `…In(tx, …)` service functions, so
 * each rule (blocking, the commercial policy, units, versions, pesos frozen with a payment date, audit
 * rows) runs once. `scripts/import-boundaries.ts` checks every write in the sources against this map.
 *
 * Tables no code writes (kept by triggers, seeded by migrations) still have an owner: the feature
 * that would write them, and whose reads explain them.
 */
export const TABLE_OWNERS = {
  // Accounts: sign-in, registration, the users of Configuración (settings calls auth.service).
  profiles: 'auth',
  roles: 'auth',
  user_roles: 'auth',
  sessions: 'auth',
  login_failures: 'auth',
  // Configuración: agencies, projects, flow defaults.
  real_estate_agencies: 'settings',
  projects: 'settings',
  default_seller: 'settings',
  workflow_task_default_assignees: 'settings',
  brokers: 'brokers',
  clients: 'clients',
  data_subject_requests: 'data-requests',
  client_blocked_values: 'data-requests',
  privacy_settings: 'data-requests',
  suppression_ledger: 'data-requests',
  uf_values: 'uf-values',
  uf_fetches: 'uf-values',
  reservations: 'reservations',
  units: 'stock',
  price_lists: 'stock',
  price_list_items: 'stock',
  project_policies: 'stock',
  reservation_units: 'stock',
  project_stock_versions: 'stock',
  promotions: 'promotions',
  broker_commissions: 'commissions',
  // The workflow engine: definitions (seeded) and flow rows (issue 29).
  workflows: 'workflows',
  workflow_stages: 'workflows',
  workflow_tasks: 'workflows',
  workflow_task_prerequisites: 'workflows',
  flows: 'workflows',
  flow_tasks: 'workflows',
  flow_task_assignees: 'workflows',
  flow_task_comments: 'workflows',
  flow_task_rejections: 'workflows',
  flow_task_comment_mentions: 'workflows',
  // Kept by triggers (0021, 0015).
  task_inbox: 'notifications',
  dashboard_project_figures: 'dashboard',
  dashboard_month_figures: 'dashboard',
  dashboard_broker_figures: 'dashboard',
  dashboard_counts: 'dashboard',
  stored_files: 'files',
  audit_log: 'audit',
  mail_messages: 'mail',
  mail_preferences: 'mail',
  holidays: 'mail',
  scheduled_runs: 'mail',
  import_runs: 'imports',
  import_run_file_parts: 'imports',
  import_run_subjects: 'imports',
  import_run_records: 'imports',
  import_mappings: 'imports',
  document_types: 'documents',
  document_type_requirements: 'documents',
  documents: 'documents',
  document_versions: 'documents',
  document_chunks: 'documents',
  broker_invoices: 'broker-invoices',
  fee_withholding_rates: 'broker-invoices',
  payment_batches: 'payment-batches',
  payment_batch_items: 'payment-batches',
  payment_settings: 'payment-batches',
  // The buyer's account (issue 60, decision 0073).
  buyer_plans: 'buyer-accounts',
  buyer_plan_lines: 'buyer-accounts',
  buyer_payments: 'buyer-accounts',
  // Roles as data (decision 0061): the office's grants of the catalogue's actions.
  permission_grants: 'permissions',
  // Cotizaciones (issue 59, decision 0071).
  quotes: 'quotes',
  quote_units: 'quotes',
  quote_settings: 'quotes',
  // The brokers' portal (issue 58, decision 0069): its accounts, their links and sessions.
  broker_users: 'portal',
  broker_user_tokens: 'portal',
  broker_sessions: 'portal',
} as const;

export type OwnedTable = keyof typeof TABLE_OWNERS;

/**
 * Files that lay down a whole dataset directly, as a test's setup does (the demo and journey data, the
 * benches' datasets): they may write any table but the flow rows, which even they write through the
 * workflow engine (issue 29).
 */
export const DATASET_WRITERS = [
  'scripts/demo-data.ts',
  'scripts/e2e-setup.ts',
  'scripts/pesos-data.ts',
  'bench/',
] as const;
