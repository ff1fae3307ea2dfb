/**
 * Every store of personal data, and how each is covered (issue 54, decision 0055): for every table of
 * the schema, the columns whose names say they may hold a person's data, and — when they hold a
 * holder's (a client's) — where 'Exportar datos del titular' shows them, what 'Suprimir datos
 * personales' does to them, and how long they are kept; otherwise whose data they are and why the
 * holder's rights do not reach them. Files written outside the database are listed in `FILE_STORES`
 * with their writer. `personal-data.test.ts` reads the schema on both engines and the sources, and
 * fails on a table, a personal-looking column or a file writer that is not here.
 */

export interface HolderCoverage {
  export: string;
  suppression: string;
  retention: string;
}

export interface TableStore {
  /** The columns that look personal by name (`PERSONAL_COLUMN`), all of them, reviewed. */
  columns: readonly string[];
  /** How a holder's data in them are covered; null when they hold no client's data (`why`). */
  holder: HolderCoverage | null;
  why?: string;
}

/** Column names that may hold a person's data: a new one anywhere must be reviewed here. */
export const PERSONAL_COLUMN =
  /(rut|name|email|phone|birth|address|search_text|content|reason|details|response|^before$|^after$|bytes|notices|subject|beneficiary|account|^value$|^ip$|user_agent|note|representative|contact|mapping|columns)/;

const LOG = 'Historial: en frases';
const KEPT_AS_RECORD = 'se conserva con la venta (registro legal y tributario)';

const staff = (columns: readonly string[]): TableStore => ({
  columns,
  holder: null,
  why: 'datos de usuarios del sistema, no de titulares',
});
const none = (columns: readonly string[] = [], why = 'no guarda datos de personas'): TableStore => ({
  columns,
  holder: null,
  why,
});
const broker = (columns: readonly string[]): TableStore => ({
  columns,
  holder: null,
  why: 'datos de contacto y pago de corredoras (personas jurídicas y sus representantes), no de clientes',
});

export const TABLE_STORES: Record<string, TableStore> = {
  clients: {
    columns: [
      'rut',
      'first_name',
      'last_name',
      'birth_date',
      'phone',
      'email',
      'search_text',
      'restriction_reason',
    ],
    holder: {
      export: 'Titular',
      suppression: "reemplazados ('Titular suprimido'); el RUT bloqueado si tiene reservas",
      retention: 'Retención: clientes sin reserva vigente ni actividad en retention_years',
    },
  },
  reservations: {
    columns: [
      'bank_name',
      'bank_executive',
      'bank_executive_email',
      'bank_executive_phone',
      'rescinded_reason',
      'client_search_text',
      'policy_override_reason',
    ],
    holder: {
      export: 'Reservas',
      suppression: 'client_search_text sigue al cliente por su trigger; el resto no es del titular',
      retention: KEPT_AS_RECORD,
    },
  },
  promotions: {
    columns: ['beneficiary', 'rut', 'bank', 'account_type', 'account_number', 'email'],
    holder: {
      export: 'Promociones (el beneficiario solo cuando es el titular)',
      suppression: 'nombre y correo borrados; RUT y cuenta bloqueados (prueba del pago)',
      retention: KEPT_AS_RECORD,
    },
  },
  flow_task_comments: {
    columns: ['content'],
    holder: {
      export: 'Comentarios',
      suppression: "sus valores reemplazados por '[titular suprimido]'",
      retention: 'con su flujo',
    },
  },
  flow_task_rejections: {
    columns: ['reason'],
    holder: {
      export: 'Historial',
      suppression: "sus valores reemplazados por '[titular suprimido]' (con los comentarios)",
      retention: 'con su flujo',
    },
  },
  audit_log: {
    columns: ['table_name', 'before', 'after'],
    holder: {
      export: LOG,
      suppression: "valores redactados a '[suprimido]' (audit_redact)",
      retention: 'permanente (solo se redacta)',
    },
  },
  documents: {
    columns: ['name'],
    holder: {
      export: 'Documentos',
      suppression: 'nombres que lo nombran reescritos',
      retention: KEPT_AS_RECORD,
    },
  },
  document_versions: {
    columns: ['file_name', 'content_type'],
    holder: {
      export: 'Documentos (versión vigente)',
      suppression: 'nombres de archivo que lo nombran reescritos',
      retention: KEPT_AS_RECORD,
    },
  },
  document_chunks: {
    columns: ['bytes'],
    holder: {
      export: 'se descargan desde la reserva',
      suppression: 'el contenido de los papeles se conserva (registro legal de la venta, decisión 0027)',
      retention: KEPT_AS_RECORD,
    },
  },
  client_blocked_values: {
    columns: ['table_name', 'column_name', 'value'],
    holder: {
      export: 'no se exporta: valores bloqueados por un deber legal, leídos con una acción auditada',
      suppression: 'son lo que la supresión bloquea',
      retention: 'seis años (Código Tributario)',
    },
  },
  data_subject_requests: {
    columns: ['holder_rut', 'details', 'response'],
    holder: {
      export: 'Solicitudes',
      suppression: 'se conserva: la prueba de que la solicitud se recibió y respondió',
      retention: 'permanente',
    },
  },
  import_runs: {
    columns: ['file_name', 'sheet_name', 'mapping'],
    holder: {
      export: 'no se exporta: registro técnico de la carga (sus cambios están en el Historial)',
      suppression: 'el nombre del archivo reescrito; el archivo subido de las cargas que lo tocaron borrado',
      retention: 'el archivo subido se borra a los import_file_days días (30)',
    },
  },
  import_run_file_parts: {
    columns: ['bytes'],
    holder: {
      export: 'no se exporta (el archivo tal como se subió)',
      suppression:
        'borrado en las cargas que crearon o cambiaron sus registros y en las que lo nombran (su RUT o correo, decisión 0062)',
      retention: 'borrado a los import_file_days días (30)',
    },
  },
  import_run_subjects: none(
    [],
    'solo hashes salados de los RUT y correos del archivo subido (decisión 0062), borrados con el archivo',
  ),
  import_run_records: {
    columns: ['table_name', 'before'],
    holder: {
      export: 'no se exporta (las instantáneas para deshacer)',
      suppression: 'la instantánea de su registro queda con los valores suprimidos',
      retention: 'con su carga',
    },
  },
  import_mappings: none(['columns'], 'encabezados de columnas, no datos'),
  mail_messages: {
    columns: ['to_address', 'notices', 'subject'],
    holder: {
      export: 'no se exporta: avisos a usuarios del sistema',
      suppression:
        "los avisos que lo nombran o van a su correo: sus valores y la dirección reemplazados por '[titular suprimido]'; los no enviados, descartados",
      retention: 'con la cola de correos',
    },
  },
  // The buyer's account (decision 0073): what the holder owes and paid for the reservation.
  buyer_plans: {
    columns: ['pie_waived_reason'],
    holder: {
      export: 'Cuenta del comprador y Plan de pagos (cada reserva)',
      suppression: 'se conserva: registro contable de la venta; el motivo es del administrador',
      retention: KEPT_AS_RECORD,
    },
  },
  buyer_plan_lines: none([], 'montos y fechas del plan de pagos de una reserva'),
  buyer_payments: {
    columns: ['reversal_reason'],
    holder: {
      export: 'Pagos (cada pago de sus reservas, los reversados con su motivo)',
      suppression: 'se conserva: registro contable de los pagos recibidos (Código Tributario)',
      retention: KEPT_AS_RECORD,
    },
  },
  suppression_ledger: none(['rut_salt', 'rut_hash'], 'solo un hash salado del RUT (decisión 0054)'),
  broker_commissions: none(['at_risk_reason']),
  broker_invoices: broker(['issuer_rut', 'mismatch_reason']),
  brokers: broker([
    'rut',
    'name',
    'business_name',
    'legal_representative',
    'legal_representative_rut',
    'commercial_address',
    'commercial_address_commune',
    'commercial_contact_name',
    'commercial_contact_phone',
    'commercial_contact_email',
    'operations_contact_name',
    'operations_contact_phone',
    'operations_contact_email',
    'finance_contact_name',
    'finance_contact_phone',
    'finance_contact_email',
    'kam_name',
    'kam_phone',
    'kam_email',
    'search_text',
    'bank_name',
    'bank_account_type',
    'bank_account_number',
    'bank_holder_name',
    'bank_holder_rut',
    'payment_email',
  ]),
  payment_batch_items: broker([
    'broker_rut',
    'broker_name',
    'bank_name',
    'bank_account_type',
    'bank_account_number',
    'holder_name',
    'holder_rut',
    'email',
  ]),
  // Cotizaciones (issue 59, decision 0071): a prospect is not yet a client; once they reserve, the
  // client made from the quote carries their data. A client's quotes (those that became their
  // reservations, or whose prospect is them by RUT or e-mail) are in their export and suppression.
  quotes: {
    columns: ['prospect_name', 'prospect_email', 'prospect_phone', 'prospect_rut', 'search_text'],
    holder: {
      export: 'Cotizaciones (las de sus reservas, y las de un prospecto con su RUT o su correo)',
      suppression: 'nombre, correo, teléfono y RUT del prospecto borrados; los montos cotizados se conservan',
      retention: 'sin plazo propio todavía: se conserva con la cotización (issue 59)',
    },
  },
  quote_units: none(),
  quote_settings: none(),
  permission_grants: none(
    [],
    'quién tiene cada acción por tipo de usuario; changed_by es un usuario del sistema',
  ),
  payment_settings: none([], 'los parámetros de pago y el formato del archivo del banco'),
  real_estate_agencies: none(
    ['rut', 'business_name', 'account_type', 'account_number'],
    'la inmobiliaria (persona jurídica)',
  ),
  profiles: staff(['email', 'first_name', 'last_name']),
  sessions: staff(['user_agent', 'ip']),
  login_failures: staff([]),
  broker_users: {
    columns: ['name', 'email'],
    holder: null,
    why: 'cuentas del portal de personas de corredoras (no titulares): se desactivan desde Brokers → Portal',
  },
  broker_user_tokens: none([]),
  broker_sessions: {
    columns: ['user_agent', 'ip'],
    holder: null,
    why: 'sesiones del portal de corredoras, no de titulares',
  },
  mail_preferences: staff([]),
  user_roles: staff([]),
  flow_task_assignees: staff([]),
  flow_task_comment_mentions: staff([]),
  default_seller: staff([]),
  roles: none(['name']),
  audit_tables: none(['table_name']),
  dashboard_broker_figures: none(),
  dashboard_counts: none(),
  dashboard_month_figures: none(),
  dashboard_project_figures: none(),
  document_type_requirements: none(),
  document_types: none(['name']),
  fee_withholding_rates: none(),
  flow_tasks: none(),
  flows: none(),
  holidays: none(['name']),
  payment_batches: none(),
  price_list_items: none(),
  price_lists: none(['note']),
  privacy_settings: none(),
  project_policies: none(),
  project_stock_versions: none(),
  projects: none(['name']),
  reservation_units: none(),
  scheduled_runs: none(),
  stored_files: none(['name', 'content_type', 'bytes'], 'logos e imágenes de proyectos y usuarios'),
  task_inbox: none(['stage_name']),
  uf_fetches: none(['failure']),
  uf_values: none(['value']),
  units: none(['blocked_reason']),
  workflow_stages: none(['name', 'unit_status']),
  workflow_task_default_assignees: none(),
  workflow_task_prerequisites: none(),
  workflow_tasks: none(['name']),
  workflows: none(['name']),
};

/** The tables a suppression changes or whose rows may hold a holder's values: the scrub rewrites them. */
export const HOLDER_TABLES = Object.entries(TABLE_STORES)
  .filter(([, store]) => store.holder !== null)
  .map(([table]) => table);

export interface FileStore {
  /** The source file that writes it. */
  writer: string;
  what: string;
  holder: HolderCoverage | null;
  why?: string;
}

/** Files written outside the database (each source that writes a file is listed). */
export const FILE_STORES: FileStore[] = [
  {
    writer: 'src/server/features/mail/mail-sender.ts',
    what: 'DATA_DIR/mail: copias .eml de los avisos cuando no hay SMTP',
    holder: {
      export: 'no se exporta: avisos a usuarios del sistema',
      suppression: "las copias que lo nombran: sus valores reemplazados por '[titular suprimido]'",
      retention: 'borradas a los mail_copy_days días (30)',
    },
  },
  {
    writer: 'src/server/features/backups/backup-file.ts',
    what: 'BACKUP_DIR: los respaldos (toda la base de datos)',
    holder: {
      export: 'no se exporta',
      suppression:
        'un respaldo anterior la conserva; al restaurarlo se repite cada supresión del registro de supresiones',
      retention: 'la política de respaldos (BACKUP_KEEP_*)',
    },
  },
  {
    writer: 'src/server/features/backups/snapshot.ts',
    what: 'DATA_DIR/.backup-staging-…: la copia de la base de datos mientras se archiva (se borra al terminar)',
    holder: null,
    why: 'temporal: se borra al terminar el respaldo',
  },
  {
    writer: 'src/server/features/documents/upload.ts',
    what: 'TMPDIR/inmoflujo-uploads: un documento subido mientras se guarda en la base de datos',
    holder: null,
    why: 'temporal: se borra al guardarlo, y los que deja una caída se borran al arrancar',
  },
  {
    writer: 'src/server/features/data-requests/ledger.ts',
    what: 'BACKUP_DIR/suppressions.ledger.json: el registro de supresiones',
    holder: null,
    why: 'solo hashes salados del RUT (decisión 0054)',
  },
];
