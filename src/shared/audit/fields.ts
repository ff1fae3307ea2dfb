/**
 * The audit trail's vocabulary (decision 0024): what each audited table and column is called in
 * Spanish and how its values read. The server formats the log with it ('Historial', Auditoría and
 * their exports); a test holds it equal to the database's audited columns, so a new column cannot
 * reach the log without a Spanish name.
 */

/** What another record a value points to; the server resolves it to a name. */
export const AUDIT_REFERENCES = [
  'user',
  'client',
  'project',
  'broker',
  'agency',
  'reservation',
  'commission',
  'flow',
  'flowTask',
  'comment',
  'workflow',
  'stage',
  'workflowTask',
  'role',
  'unit',
  'priceList',
  'documentType',
] as const;
export type AuditReference = (typeof AUDIT_REFERENCES)[number];

export type AuditFormat =
  | 'text'
  | 'uf'
  /** Chilean pesos ('$ 1.234.567' or, for a UF value, '$ 36.789,36'). */
  | 'clp'
  /** Where a UF value came from: file, user, automatic. */
  | 'ufSource'
  /** A fraction 0..1 shown as a percentage. */
  | 'fraction'
  /** A whole percentage (25, 50, 100). */
  | 'percent'
  | 'integer'
  | 'date'
  | 'month'
  | 'instant'
  | 'boolean'
  | 'rut'
  /** Never shown: the log holds '[oculto]'. */
  | 'secret'
  | 'taskStatus'
  | 'flowStatus'
  | 'flowKind'
  /** A client's opposition or blocking (Ley 21.719). */
  | 'restriction'
  | 'dataRequestKind'
  | 'dataRequestStatus'
  /** A unit's kind: Departamento, Estacionamiento, Bodega. */
  | 'unitKind'
  /** The broker's document: Factura electrónica afecta, exenta, Boleta de honorarios. */
  | 'invoiceKind'
  /** Where an invoice's figures came from: typed, or read from its XML. */
  | 'invoiceSource'
  /** A payment batch's state: Abierta, Pagada, Anulada. */
  | 'batchStatus'
  | { ref: AuditReference };

export interface AuditField {
  label: string;
  format: AuditFormat;
  /** Structure only (the row's own id, the key that places it): kept in the log, not listed. */
  hidden?: true;
}

const field = (label: string, format: AuditFormat = 'text'): AuditField => ({ label, format });
const hidden = (label: string, format: AuditFormat = 'text'): AuditField => ({ label, format, hidden: true });
const ref = (label: string, to: AuditReference): AuditField => ({ label, format: { ref: to } });

export interface AuditTable {
  /** The record, as a sentence names it ('la comisión', 'el cliente'). */
  noun: string;
  fields: Record<string, AuditField>;
}

/** Every audited table with every column the log writes (migration 0017 leaves out the rest). */
export const AUDIT_TABLES = {
  clients: {
    noun: 'el cliente',
    fields: {
      id: hidden('Id'),
      rut: field('RUT', 'rut'),
      first_name: field('Nombres'),
      last_name: field('Apellidos'),
      birth_date: field('Fecha de nacimiento', 'date'),
      phone: field('Teléfono'),
      email: field('Correo electrónico'),
      deleted_at: field('Eliminado el', 'instant'),
      deleted_by: ref('Eliminado por', 'user'),
      suppressed_at: field('Datos suprimidos el', 'instant'),
      suppressed_by: ref('Datos suprimidos por', 'user'),
      restriction: field('Restricción del titular', 'restriction'),
      restriction_reason: field('Motivo de la restricción'),
      restricted_at: field('Restringido el', 'instant'),
      restricted_by: ref('Restringido por', 'user'),
    },
  },
  data_subject_requests: {
    noun: 'la solicitud del titular',
    fields: {
      id: hidden('Id'),
      kind: field('Tipo de solicitud', 'dataRequestKind'),
      holder_rut: field('RUT del titular', 'rut'),
      client_id: ref('Cliente', 'client'),
      received_date: field('Recibida el', 'date'),
      status: field('Estado', 'dataRequestStatus'),
      details: field('Detalle'),
      response: field('Respuesta'),
      answered_at: field('Respondida el', 'instant'),
      handled_by: ref('Atendida por', 'user'),
    },
  },
  uf_values: {
    noun: 'el valor UF',
    fields: {
      date: field('Fecha', 'date'),
      value: field('Valor UF', 'clp'),
      source: field('Origen', 'ufSource'),
    },
  },
  permission_grants: {
    noun: 'el permiso',
    fields: {
      action: field('Acción'),
      user_type: field('Tipo de usuario'),
      granted: field('Otorgado', 'boolean'),
      changed_by: ref('Cambiado por', 'user'),
      changed_at: field('Cambiado el', 'instant'),
    },
  },
  payment_settings: {
    noun: 'la configuración de pagos',
    fields: {
      id: hidden('Id', 'boolean'),
      tolerance_per_uf: field('Diferencia aceptada por UF', 'clp'),
      paid_date_business_days: field('Días hábiles para fechar un pago', 'integer'),
      bank_file_layout: field('Formato del archivo del banco'),
    },
  },
  privacy_settings: {
    noun: 'la configuración de privacidad',
    fields: {
      id: hidden('Id', 'boolean'),
      retention_years: field('Años de retención', 'integer'),
      import_file_days: field('Días que se guarda el archivo de una importación', 'integer'),
      mail_copy_days: field('Días que se guardan las copias .eml de los avisos', 'integer'),
    },
  },
  holidays: {
    noun: 'el feriado',
    fields: {
      day: field('Fecha', 'date'),
      name: field('Nombre'),
    },
  },
  brokers: {
    noun: 'el broker',
    fields: {
      id: hidden('Id'),
      rut: field('RUT', 'rut'),
      name: field('Nombre'),
      business_name: field('Razón social'),
      legal_representative: field('Representante legal'),
      legal_representative_rut: field('RUT representante legal', 'rut'),
      commercial_address: field('Dirección comercial'),
      commercial_address_commune: field('Comuna'),
      commercial_contact_name: field('Contacto comercial'),
      commercial_contact_phone: field('Teléfono contacto comercial'),
      commercial_contact_email: field('Correo contacto comercial'),
      constitution_date: field('Fecha de constitución', 'date'),
      constitution_notary: field('Notaría de constitución'),
      operations_contact_name: field('Contacto operaciones'),
      operations_contact_phone: field('Teléfono contacto operaciones'),
      operations_contact_email: field('Correo contacto operaciones'),
      finance_contact_name: field('Contacto finanzas'),
      finance_contact_phone: field('Teléfono contacto finanzas'),
      finance_contact_email: field('Correo contacto finanzas'),
      kam_name: field('KAM'),
      kam_phone: field('Teléfono KAM'),
      kam_email: field('Correo KAM'),
      kam_receives_commission: field('KAM recibe comisión', 'boolean'),
      bank_name: field('Banco'),
      bank_account_type: field('Tipo de cuenta'),
      bank_account_number: field('Número de cuenta'),
      payment_email: field('Correo para pagos'),
      bank_holder_name: field('Titular de la cuenta'),
      bank_holder_rut: field('RUT del titular', 'rut'),
      bank_changed_by: ref('Cuenta cambiada por', 'user'),
      bank_changed_at: field('Cuenta cambiada el', 'instant'),
      bank_verified_by: ref('Cuenta verificada por', 'user'),
      bank_verified_at: field('Cuenta verificada el', 'instant'),
    },
  },
  reservations: {
    noun: 'la reserva',
    fields: {
      id: hidden('Id'),
      reservation_number: field('N° Reserva'),
      client_id: ref('Cliente', 'client'),
      project_id: ref('Proyecto', 'project'),
      seller_id: ref('Vendedor', 'user'),
      reservation_date: field('Fecha de reserva', 'date'),
      apartment_number: field('Departamento'),
      parking_number: field('Estacionamiento'),
      storage_number: field('Bodega'),
      apartment_price: field('Precio departamento', 'uf'),
      parking_price: field('Precio estacionamiento', 'uf'),
      storage_price: field('Precio bodega', 'uf'),
      total_price: field('Precio lista', 'uf'),
      column_discount: field('Descuento columna', 'fraction'),
      additional_discount: field('Descuento adicional', 'fraction'),
      other_discount: field('Otro descuento', 'fraction'),
      minimum_price: field('Precio mínimo', 'uf'),
      reservation_payment: field('Pago reserva', 'uf'),
      promise_payment: field('Pago promesa', 'uf'),
      down_payment: field('Pie', 'uf'),
      credit_payment: field('Crédito', 'uf'),
      subsidy_payment: field('Subsidio', 'uf'),
      total_payment: field('Total escrituración', 'uf'),
      recovery_payment: field('Total recuperación', 'uf'),
      is_with_broker: field('Venta con broker', 'boolean'),
      broker_id: ref('Broker', 'broker'),
      promise_date: field('Fecha de promesa', 'date'),
      deed_date: field('Fecha de escritura', 'date'),
      commission_payment_month: field('Mes de pago comisión', 'month'),
      commission_projection_month: field('Mes de proyección comisión', 'month'),
      bank_name: field('Banco escrituración'),
      bank_executive: field('Ejecutivo banco'),
      bank_executive_email: field('Correo ejecutivo banco'),
      bank_executive_phone: field('Teléfono ejecutivo banco'),
      is_rescinded: field('Resciliada', 'boolean'),
      rescinded_at: field('Fecha de resciliación', 'instant'),
      rescinded_reason: field('Motivo de resciliación'),
      rescinded_by: ref('Resciliada por', 'user'),
      policy_override_reason: field('Motivo de excepción a la política comercial'),
    },
  },
  reservation_units: {
    noun: 'la unidad de la reserva',
    fields: {
      reservation_id: hidden('Reserva', { ref: 'reservation' }),
      unit_id: ref('Unidad', 'unit'),
      price: field('Precio', 'uf'),
      price_list_id: ref('Lista de precios', 'priceList'),
      is_live: field('Vigente', 'boolean'),
    },
  },
  units: {
    noun: 'la unidad',
    fields: {
      id: hidden('Id'),
      project_id: hidden('Proyecto', { ref: 'project' }),
      kind: field('Tipo', 'unitKind'),
      number: field('Número'),
      floor: field('Piso', 'integer'),
      building: field('Torre'),
      typology: field('Tipología'),
      orientation: field('Orientación'),
      usable_area: field('m² útiles'),
      terrace_area: field('m² terraza'),
      total_area: field('m² totales'),
      blocked_reason: field('Motivo de bloqueo'),
    },
  },
  price_lists: {
    noun: 'la lista de precios',
    fields: {
      id: hidden('Id'),
      project_id: hidden('Proyecto', { ref: 'project' }),
      effective_date: field('Vigente desde', 'date'),
      price_count: field('Precios', 'integer'),
      note: field('Nota'),
    },
  },
  project_policies: {
    noun: 'la política comercial',
    fields: {
      project_id: hidden('Proyecto', { ref: 'project' }),
      reservation_amount: field('Monto de reserva', 'uf'),
      max_column_discount: field('Descuento columna máximo', 'fraction'),
      max_additional_discount: field('Descuento adicional máximo', 'fraction'),
      max_other_discount: field('Otro descuento máximo', 'fraction'),
      max_subsidy_fraction: field('Bono pie máximo', 'fraction'),
    },
  },
  quote_settings: {
    noun: 'la configuración de cotizaciones',
    fields: {
      project_id: hidden('Proyecto', { ref: 'project' }),
      validity_days: field('Días de vigencia de una cotización', 'integer'),
      max_installments: field('Cuotas máximas del pie', 'integer'),
    },
  },
  quotes: {
    noun: 'la cotización',
    fields: {
      id: hidden('Id'),
      number: field('Número', 'integer'),
      project_id: ref('Proyecto', 'project'),
      seller_id: ref('Vendedor', 'user'),
      broker_id: ref('Broker', 'broker'),
      prospect_name: field('Nombre del prospecto'),
      prospect_email: field('Correo del prospecto'),
      prospect_phone: field('Teléfono del prospecto'),
      prospect_rut: field('RUT del prospecto', 'rut'),
      quote_date: field('Fecha', 'date'),
      valid_until: field('Vigente hasta', 'date'),
      price_list_id: ref('Lista de precios', 'priceList'),
      uf_date: field('Fecha del valor UF', 'date'),
      uf_value: field('Valor UF', 'clp'),
      apartment_price: field('Precio departamento', 'uf'),
      parking_price: field('Precio estacionamiento', 'uf'),
      storage_price: field('Precio bodega', 'uf'),
      column_discount: field('Descuento columna', 'fraction'),
      additional_discount: field('Descuento adicional', 'fraction'),
      other_discount: field('Otro descuento', 'fraction'),
      list_price: field('Precio lista', 'uf'),
      final_price: field('Precio final', 'uf'),
      reservation_amount: field('Reserva', 'uf'),
      down_payment_fraction: field('Pie', 'fraction'),
      down_payment: field('Monto del pie', 'uf'),
      installments: field('Cuotas del pie', 'integer'),
      subsidy_amount: field('Subsidio', 'uf'),
      credit_amount: field('Crédito hipotecario', 'uf'),
      reservation_id: ref('Reserva', 'reservation'),
      reserved_at: field('Reservada el', 'instant'),
      copied_from_id: hidden('Copiada de'),
      sent_count: field('Envíos', 'integer'),
      last_sent_at: field('Último envío', 'instant'),
    },
  },
  promotions: {
    noun: 'la promoción',
    fields: {
      id: hidden('Id'),
      reservation_id: hidden('Reserva', { ref: 'reservation' }),
      amount: field('Monto promoción', 'uf'),
      beneficiary: field('Beneficiario'),
      rut: field('RUT beneficiario', 'rut'),
      bank: field('Banco'),
      account_type: field('Tipo de cuenta'),
      account_number: field('Número de cuenta'),
      email: field('Correo electrónico'),
      purchase_order: field('Orden de compra'),
      document_number: field('N° documento'),
      document_date: field('Fecha documento', 'date'),
      payment_date: field('Fecha de pago', 'date'),
      bank_changed_by: ref('Cuenta cambiada por', 'user'),
      bank_changed_at: field('Cuenta cambiada el', 'instant'),
      bank_verified_by: ref('Cuenta verificada por', 'user'),
      bank_verified_at: field('Cuenta verificada el', 'instant'),
    },
  },
  broker_commissions: {
    noun: 'la comisión del broker',
    fields: {
      id: hidden('Id'),
      reservation_id: hidden('Reserva', { ref: 'reservation' }),
      broker_id: ref('Broker', 'broker'),
      commission_amount: field('Monto comisión', 'uf'),
      commission_includes_tax: field('Comisión incluye IVA', 'boolean'),
      net_commission: field('Comisión neta', 'uf'),
      commission_for_discount: field('Comisión por descuento', 'boolean'),
      pays_secondary: field('Paga estacionamiento y bodega', 'boolean'),
      number_of_payments: field('Número de pagos', 'integer'),
      first_payment_percentage: field('Porcentaje primer pago', 'percent'),
      purchase_order: field('Orden de compra'),
      invoice_1: field('Factura 1'),
      invoice_1_date: field('Fecha factura 1', 'date'),
      payment_1_date: field('Fecha de pago 1', 'date'),
      invoice_2: field('Factura 2'),
      invoice_2_date: field('Fecha factura 2', 'date'),
      payment_2_date: field('Fecha de pago 2', 'date'),
      difference: field('Diferencia', 'uf'),
      at_risk: field('En riesgo', 'boolean'),
      at_risk_reason: field('Motivo del riesgo'),
      penalty_amount: field('Multa', 'uf'),
      payment_1_clp: field('Monto CLP pago 1', 'clp'),
      payment_1_uf_value: field('Valor UF pago 1', 'clp'),
      payment_2_clp: field('Monto CLP pago 2', 'clp'),
      payment_2_uf_value: field('Valor UF pago 2', 'clp'),
    },
  },
  flows: {
    noun: 'el flujo',
    fields: {
      id: hidden('Id'),
      workflow_id: ref('Flujo', 'workflow'),
      kind: field('Tipo de flujo', 'flowKind'),
      reservation_id: hidden('Reserva', { ref: 'reservation' }),
      broker_commission_id: hidden('Comisión', { ref: 'commission' }),
      is_second_payment: field('Segundo pago', 'boolean'),
      current_stage_id: ref('Etapa actual', 'stage'),
      status: field('Estado', 'flowStatus'),
      started_at: field('Inicio', 'instant'),
      completed_at: field('Término', 'instant'),
    },
  },
  flow_tasks: {
    noun: 'la tarea',
    fields: {
      id: hidden('Id'),
      flow_id: hidden('Flujo', { ref: 'flow' }),
      task_id: ref('Tarea', 'workflowTask'),
      status: field('Estado', 'taskStatus'),
      started_at: field('Inicio', 'instant'),
      completed_at: field('Término', 'instant'),
      completed_by: ref('Completada por', 'user'),
      days_to_complete: field('Plazo (días)', 'integer'),
    },
  },
  flow_task_assignees: {
    noun: 'la asignación',
    fields: {
      flow_task_id: ref('Tarea', 'flowTask'),
      flow_id: hidden('Flujo', { ref: 'flow' }),
      user_id: ref('Responsable', 'user'),
      assigned_by: ref('Asignado por', 'user'),
      assigned_at: field('Asignado el', 'instant'),
    },
  },
  flow_task_comments: {
    noun: 'el comentario',
    fields: {
      id: hidden('Id'),
      flow_task_id: ref('Tarea', 'flowTask'),
      user_id: ref('Autor', 'user'),
      content: field('Comentario'),
    },
  },
  flow_task_rejections: {
    noun: 'el rechazo',
    fields: {
      id: hidden('Id'),
      flow_task_id: ref('Tarea', 'flowTask'),
      flow_id: hidden('Flujo', { ref: 'flow' }),
      rejected_by: ref('Rechazado por', 'user'),
      rejected_at: field('Rechazado el', 'instant'),
      reason: field('Motivo'),
    },
  },
  flow_task_comment_mentions: {
    noun: 'la mención',
    fields: {
      comment_id: hidden('Comentario', { ref: 'comment' }),
      user_id: ref('Mencionado', 'user'),
    },
  },
  real_estate_agencies: {
    noun: 'la inmobiliaria',
    fields: {
      id: hidden('Id'),
      rut: field('RUT', 'rut'),
      business_name: field('Razón social'),
      bank: field('Banco'),
      account_type: field('Tipo de cuenta'),
      account_number: field('Número de cuenta'),
      bank_changed_by: ref('Cuenta cambiada por', 'user'),
      bank_changed_at: field('Cuenta cambiada el', 'instant'),
      bank_verified_by: ref('Cuenta verificada por', 'user'),
      bank_verified_at: field('Cuenta verificada el', 'instant'),
    },
  },
  projects: {
    noun: 'el proyecto',
    fields: {
      id: hidden('Id'),
      name: field('Nombre'),
      stage: field('Etapa'),
      commune: field('Comuna'),
      deadline: field('Fecha de entrega', 'date'),
      real_estate_agency_id: ref('Inmobiliaria', 'agency'),
      logo_url: field('Logo'),
      total_units: field('Total de unidades', 'integer'),
    },
  },
  // The brokers' portal (issue 58, decision 0069): its accounts, under their broker.
  broker_users: {
    noun: 'la cuenta del portal de brokers',
    fields: {
      id: hidden('Id'),
      broker_id: hidden('Broker'),
      name: field('Nombre'),
      email: field('Correo electrónico'),
      password_hash: field('Contraseña', 'secret'),
      is_active: field('Activa', 'boolean'),
      invited_by: ref('Invitada por', 'user'),
    },
  },
  profiles: {
    noun: 'el usuario',
    fields: {
      id: hidden('Id'),
      email: field('Correo electrónico'),
      password_hash: field('Contraseña', 'secret'),
      first_name: field('Nombres'),
      last_name: field('Apellidos'),
      position: field('Cargo'),
      user_type: field('Tipo de usuario'),
      is_seller: field('Vendedor', 'boolean'),
      avatar_url: field('Avatar'),
      is_active: field('Activo', 'boolean'),
    },
  },
  roles: {
    noun: 'el rol',
    fields: {
      id: hidden('Id'),
      name: field('Nombre'),
      description: field('Descripción'),
    },
  },
  user_roles: {
    noun: 'el rol del usuario',
    fields: {
      user_id: ref('Usuario', 'user'),
      role_id: ref('Rol', 'role'),
    },
  },
  default_seller: {
    noun: 'el vendedor por defecto',
    fields: {
      id: hidden('Id'),
      singleton: hidden('Único', 'boolean'),
      user_id: ref('Vendedor por defecto', 'user'),
    },
  },
  workflows: {
    noun: 'el flujo',
    fields: {
      id: hidden('Id'),
      name: field('Nombre'),
      kind: field('Tipo de flujo', 'flowKind'),
      task_opening: field('Apertura de tareas'),
      single_assignee: field('Un solo responsable', 'boolean'),
    },
  },
  workflow_stages: {
    noun: 'la etapa',
    fields: {
      id: hidden('Id'),
      workflow_id: ref('Flujo', 'workflow'),
      name: field('Nombre'),
      sort_order: field('Orden', 'integer'),
      unit_status: field('Estado de las unidades en la etapa'),
    },
  },
  workflow_tasks: {
    noun: 'la tarea del flujo',
    fields: {
      id: hidden('Id'),
      stage_id: ref('Etapa', 'stage'),
      name: field('Nombre'),
      sort_order: field('Orden', 'integer'),
      days_to_complete: field('Plazo (días)', 'integer'),
      assign_to_seller: field('Se asigna al vendedor', 'boolean'),
      is_approval: field('Es aprobación', 'boolean'),
      is_retired: field('Retirada del flujo', 'boolean'),
      records_broker_invoice: field('Recibe la factura del broker', 'boolean'),
    },
  },
  workflow_task_prerequisites: {
    noun: 'el requisito de la tarea',
    fields: {
      task_id: ref('Tarea', 'workflowTask'),
      prerequisite_task_id: ref('Requisito', 'workflowTask'),
    },
  },
  workflow_task_default_assignees: {
    noun: 'el responsable por defecto',
    fields: {
      task_id: ref('Tarea', 'workflowTask'),
      user_id: ref('Responsable por defecto', 'user'),
    },
  },
  documents: {
    noun: 'el documento',
    fields: {
      id: hidden('Id'),
      reservation_id: hidden('Reserva', { ref: 'reservation' }),
      document_type_id: ref('Tipo de documento', 'documentType'),
      name: field('Nombre'),
      current_version: field('Versión', 'integer'),
    },
  },
  document_types: {
    noun: 'el tipo de documento',
    fields: {
      id: hidden('Id'),
      name: field('Nombre'),
      is_restricted: field('Solo administradores y pagos', 'boolean'),
      is_broker_invoice: field('Es la factura del broker', 'boolean'),
      sort_order: field('Orden', 'integer'),
    },
  },
  document_type_requirements: {
    noun: 'el documento requerido por una tarea',
    fields: {
      document_type_id: hidden('Tipo de documento', { ref: 'documentType' }),
      workflow_task_id: ref('Tarea que lo requiere', 'workflowTask'),
    },
  },
  broker_invoices: {
    noun: 'la factura del broker',
    fields: {
      id: hidden('Id'),
      flow_task_id: ref('Tarea', 'flowTask'),
      flow_id: hidden('Flujo', { ref: 'flow' }),
      broker_id: ref('Broker', 'broker'),
      kind: field('Documento', 'invoiceKind'),
      issuer_rut: field('RUT emisor', 'rut'),
      folio: field('Folio'),
      issue_date: field('Fecha de emisión', 'date'),
      received_date: field('Fecha de recepción', 'date'),
      net_amount: field('Neto', 'clp'),
      vat_amount: field('IVA', 'clp'),
      total_amount: field('Total', 'clp'),
      gross_amount: field('Monto bruto', 'clp'),
      withholding_amount: field('Retención', 'clp'),
      payable_amount: field('Líquido a pagar', 'clp'),
      source: field('Origen', 'invoiceSource'),
      mismatch_accepted_by: ref('Diferencia aceptada por', 'user'),
      mismatch_accepted_at: field('Diferencia aceptada el', 'instant'),
      mismatch_reason: field('Motivo de la aceptación'),
    },
  },
  payment_batches: {
    noun: 'la nómina de pago',
    fields: {
      id: hidden('Id'),
      number: field('Número', 'integer'),
      status: field('Estado', 'batchStatus'),
      payment_count: field('Cantidad de pagos', 'integer'),
      total_clp: field('Total', 'clp'),
      paid_date: field('Fecha de pago', 'date'),
      paid_by: ref('Pagada por', 'user'),
      paid_at: field('Marcada pagada el', 'instant'),
      cancelled_by: ref('Anulada por', 'user'),
      cancelled_at: field('Anulada el', 'instant'),
    },
  },
  buyer_plans: {
    noun: 'el plan de pagos del comprador',
    fields: {
      id: hidden('Id'),
      reservation_id: hidden('Reserva', { ref: 'reservation' }),
      reservation_amount: field('Reserva (UF)', 'uf'),
      promise_amount: field('Promesa (UF)', 'uf'),
      down_payment_amount: field('Pie (UF)', 'uf'),
      installment_count: field('Cuotas del pie', 'integer'),
      credit_amount: field('Crédito hipotecario (UF)', 'uf'),
      subsidy_amount: field('Subsidio (UF)', 'uf'),
      promise_date: field('Fecha de promesa', 'date'),
      expected_deed_date: field('Fecha estimada de escritura', 'date'),
      paid_amount: field('Pagado (UF)', 'uf'),
      pie_waived_reason: field('Motivo para liberar la carta pie'),
      pie_waived_by: ref('Carta pie liberada por', 'user'),
      pie_waived_at: field('Carta pie liberada el', 'instant'),
    },
  },
  buyer_payments: {
    noun: 'el pago del comprador',
    fields: {
      id: hidden('Id'),
      plan_id: hidden('Plan'),
      reservation_id: hidden('Reserva', { ref: 'reservation' }),
      paid_date: field('Fecha de pago', 'date'),
      amount: field('Monto (UF)', 'uf'),
      amount_clp: field('Monto en pesos', 'clp'),
      uf_value: field('Valor UF', 'clp'),
      means: field('Medio de pago'),
      document_number: field('N° de documento'),
      reversed_at: field('Reversado el', 'instant'),
      reversed_by: ref('Reversado por', 'user'),
      reversal_reason: field('Motivo de la reversa'),
    },
  },
} as const satisfies Record<string, AuditTable>;

export type AuditedTable = keyof typeof AUDIT_TABLES;

export function isAuditedTable(name: string): name is AuditedTable {
  return Object.hasOwn(AUDIT_TABLES, name);
}

/**
 * The kinds of record a change belongs to (the log's root table): the Auditoría's filter, and the
 * records that have a 'Historial'. A reservation's kind holds its commission and promotions; a
 * flow's its tasks, assignees and comments.
 */
export const AUDIT_RECORD_KINDS = {
  clients: 'Clientes',
  brokers: 'Brokers',
  reservations: 'Reservas',
  flows: 'Flujos',
  projects: 'Proyectos',
  real_estate_agencies: 'Inmobiliarias',
  profiles: 'Usuarios',
  workflows: 'Configuración de flujos',
  default_seller: 'Vendedor por defecto',
  roles: 'Roles',
  sessions: 'Sesiones',
  data_subject_requests: 'Solicitudes de titulares',
  privacy_settings: 'Configuración de privacidad',
  payment_settings: 'Configuración de pagos',
  permission_grants: 'Permisos',
  holidays: 'Feriados',
  uf_values: 'Valores UF',
  document_types: 'Tipos de documento',
  payment_batches: 'Nóminas de pago',
  quotes: 'Cotizaciones',
  exports: 'Exportaciones',
} as const;
export type AuditRecordKind = keyof typeof AUDIT_RECORD_KINDS;
export const AUDIT_RECORD_KIND_KEYS = Object.keys(AUDIT_RECORD_KINDS) as AuditRecordKind[];

/** One record of each kind, named: 'Reserva (eliminado)' when it no longer exists. */
export const AUDIT_RECORD_NOUNS: Record<AuditRecordKind, string> = {
  clients: 'Cliente',
  brokers: 'Broker',
  reservations: 'Reserva',
  flows: 'Flujo',
  projects: 'Proyecto',
  real_estate_agencies: 'Inmobiliaria',
  profiles: 'Usuario',
  workflows: 'Definición de flujo',
  default_seller: 'Vendedor por defecto',
  roles: 'Rol',
  sessions: 'Sesión',
  data_subject_requests: 'Solicitud de titular',
  privacy_settings: 'Configuración de privacidad',
  payment_settings: 'Configuración de pagos',
  permission_grants: 'Permiso',
  holidays: 'Feriado',
  uf_values: 'Valor UF',
  document_types: 'Tipo de documento',
  payment_batches: 'Nómina de pago',
  quotes: 'Cotización',
  exports: 'Exportación',
};

/** The records whose screens show a 'Historial' (their own changes and their parts'). */
export const HISTORY_KINDS = ['clients', 'brokers', 'reservations', 'flows'] as const;
export type HistoryKind = (typeof HISTORY_KINDS)[number];
