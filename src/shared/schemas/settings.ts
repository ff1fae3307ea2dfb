import { z } from 'zod';
import { ACCOUNT_TYPES } from '../domain/accounts';
import { IMAGE_FORMATS, IMAGE_FORMATS_TEXT } from '../domain/images';
import { USER_TYPES } from '../permissions';
import { newPassword } from './auth';
import { pageOf, requiredEmail, requiredText, uuid, versioned } from './common';
import { requiredDate, requiredRut } from './fields';

/**
 * Configuración (spec part 2 §2, §3, §5): agencies, projects, users and the flows' defaults. The
 * API contract under /api/settings, also used by the forms. Writes are for administrators only.
 */

// ---------------------------------------------------------------------------------------------
// Inmobiliarias

export const AGENCY_MESSAGES = {
  rutRequired: 'El RUT es obligatorio',
  rutInvalid: 'El RUT no es válido (revise el dígito verificador)',
  businessName: 'La razón social es obligatoria',
  bank: 'El banco es obligatorio',
  accountType: 'Seleccione el tipo de cuenta',
  accountNumber: 'El número de cuenta es obligatorio',
} as const;

export const agencyBody = z.strictObject({
  rut: requiredRut(AGENCY_MESSAGES.rutRequired, AGENCY_MESSAGES.rutInvalid),
  businessName: requiredText(AGENCY_MESSAGES.businessName),
  bank: requiredText(AGENCY_MESSAGES.bank, 100),
  accountType: z.enum(ACCOUNT_TYPES, { error: AGENCY_MESSAGES.accountType }),
  accountNumber: requiredText(AGENCY_MESSAGES.accountNumber, 40),
});
export type AgencyBody = z.input<typeof agencyBody>;
export type AgencyValues = z.output<typeof agencyBody>;
export const agencyUpdateBody = agencyBody.extend(versioned);
export type AgencyUpdateBody = z.input<typeof agencyUpdateBody>;

export const agencyRow = z.object({
  id: z.uuid(),
  rut: z.string(),
  businessName: z.string(),
  bank: z.string(),
  accountType: z.enum(ACCOUNT_TYPES),
  accountNumber: z.string(),
  /**
   * The account as entered waits for a second person (issue 53, decision 0063): 'unverified' ('Cuenta
   * por verificar') until another payments user or an administrator verifies it.
   */
  accountStatus: z.enum(['unverified', 'verified']),
});
export type AgencyRow = z.infer<typeof agencyRow>;
export const agencyPage = pageOf(agencyRow);
export type AgencyPage = z.infer<typeof agencyPage>;

export const agency = agencyRow.extend({
  version: z.number().int(),
  /** Whether the viewer may press 'Verificar cuenta' (payments staff, never the account's author). */
  canVerifyAccount: z.boolean(),
});
export type Agency = z.infer<typeof agency>;
export const agencyResponse = z.object({ agency });

/** The project form's agency select (tens of rows). */
export const agencyOption = z.object({ id: z.uuid(), rut: z.string(), businessName: z.string() });
export type AgencyOption = z.infer<typeof agencyOption>;
export const agencyOptionsResponse = z.object({ agencies: z.array(agencyOption) });

// ---------------------------------------------------------------------------------------------
// Proyectos

export const PROJECT_MESSAGES = {
  name: 'El nombre del proyecto es obligatorio',
  stage: 'La etapa es obligatoria',
  commune: 'La comuna es obligatoria',
  deadlineRequired: 'La fecha de entrega es obligatoria',
  deadlineInvalid: 'Ingrese una fecha de entrega válida',
  agency: 'Seleccione la inmobiliaria',
  totalUnits: 'Ingrese un número entero de unidades (0 o más)',
} as const;

export const projectBody = z.strictObject({
  name: requiredText(PROJECT_MESSAGES.name, 120),
  stage: requiredText(PROJECT_MESSAGES.stage, 60),
  commune: requiredText(PROJECT_MESSAGES.commune, 100),
  deadline: requiredDate(PROJECT_MESSAGES.deadlineRequired, PROJECT_MESSAGES.deadlineInvalid),
  realEstateAgencyId: uuid(PROJECT_MESSAGES.agency),
  totalUnits: z
    .number({ error: PROJECT_MESSAGES.totalUnits })
    .int({ error: PROJECT_MESSAGES.totalUnits })
    .min(0, { error: PROJECT_MESSAGES.totalUnits })
    .max(100_000, { error: PROJECT_MESSAGES.totalUnits })
    .nullish()
    .transform((value) => value ?? null),
});
export type ProjectBody = z.input<typeof projectBody>;
export type ProjectValues = z.output<typeof projectBody>;
export const projectUpdateBody = projectBody.extend(versioned);
export type ProjectUpdateBody = z.input<typeof projectUpdateBody>;

export const DELIVERY_KINDS = ['Inmediata', 'Futura'] as const;

export const projectRow = z.object({
  id: z.uuid(),
  name: z.string(),
  stage: z.string(),
  commune: z.string(),
  deadline: z.string(),
  agencyName: z.string(),
  logoUrl: z.string().nullable(),
  /** 'Inmediata' once the deadline has passed (Santiago calendar), else 'Futura'. */
  delivery: z.enum(DELIVERY_KINDS),
  /** Derived from the deadline on the day of the request (shared/domain/projects.ts). */
  installments: z.number().int(),
  totalUnits: z.number().int().nullable(),
});
export type ProjectRow = z.infer<typeof projectRow>;
export const projectPage = pageOf(projectRow);
export type ProjectPage = z.infer<typeof projectPage>;

export const project = projectRow.extend({
  realEstateAgencyId: z.uuid(),
  version: z.number().int(),
  /** Units its inventory holds (Configuración → Proyectos → Unidades): 'Total de Unidades' is checked against it. */
  inventoryUnits: z.number().int(),
});

/**
 * What the form says beside 'Total de Unidades' once the project has an inventory: how many units it
 * holds, and whether the typed total disagrees (issue 57: 180 typed, 181 in the inventory).
 */
export function totalUnitsNote(typed: number | string | null, inventoryUnits: number): string | null {
  if (inventoryUnits === 0) return null;
  const units = `${inventoryUnits.toLocaleString('es-CL')} ${inventoryUnits === 1 ? 'unidad' : 'unidades'}`;
  if (typed === '' || typed === null || Number(typed) === inventoryUnits)
    return `El inventario tiene ${units}`;
  return `No coincide con el inventario, que tiene ${units}`;
}
export type Project = z.infer<typeof project>;
export const projectResponse = z.object({ project });

// ---------------------------------------------------------------------------------------------
// Usuarios

export const USER_MESSAGES = {
  email: 'Ingrese un correo electrónico válido',
  firstName: 'Los nombres son obligatorios',
  lastName: 'Los apellidos son obligatorios',
  position: 'El cargo es obligatorio',
  userType: 'Seleccione el tipo de usuario',
  avatarType: 'Por favor seleccione un archivo de imagen válido',
  avatarSize: 'La imagen no debe superar los 2MB',
} as const;

const userFields = {
  firstName: requiredText(USER_MESSAGES.firstName, 100),
  lastName: requiredText(USER_MESSAGES.lastName, 100),
  position: requiredText(USER_MESSAGES.position, 100),
  userType: z.enum(USER_TYPES, { error: USER_MESSAGES.userType }),
  isSeller: z.boolean().default(false),
};

export const userCreateBody = z.strictObject({
  email: requiredEmail(USER_MESSAGES.email),
  password: newPassword,
  ...userFields,
});
export type UserCreateBody = z.input<typeof userCreateBody>;
export type UserCreateValues = z.output<typeof userCreateBody>;

/** The e-mail is not editable (spec part 2 §5). */
export const userUpdateBody = z.strictObject({ ...userFields, ...versioned });
export type UserUpdateBody = z.input<typeof userUpdateBody>;
export type UserUpdateValues = z.output<typeof userUpdateBody>;

export const userPasswordBody = z.strictObject({ password: newPassword });
export type UserPasswordBody = z.input<typeof userPasswordBody>;

/** Search (300 ms debounce) over first name, last name, position and e-mail; inactive users included. */
export const userRow = z.object({
  id: z.uuid(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  position: z.string(),
  userType: z.enum(USER_TYPES),
  isSeller: z.boolean(),
  avatarUrl: z.string().nullable(),
  isActive: z.boolean(),
});
export type UserRow = z.infer<typeof userRow>;
export const userPage = pageOf(userRow);
export type UserPage = z.infer<typeof userPage>;

export const settingsUser = userRow.extend({ version: z.number().int() });
export type SettingsUser = z.infer<typeof settingsUser>;
export const settingsUserResponse = z.object({ user: settingsUser });

// ---------------------------------------------------------------------------------------------
// Images (project logo, user avatar): the raw bytes are the request body (≤ 2 MB).

/** The largest image accepted, in bytes (spec part 2 §9: 2MB). */
export const IMAGE_MAX_BYTES = 2 * 1024 * 1024;
/** What the file input offers (`domain/images`' formats); the type is judged by the bytes. */
export const IMAGE_ACCEPT = IMAGE_FORMATS.flatMap((format) => format.mimeTypes).join(',');
/** Under the logo and avatar pickers: what the server takes, 'JPG, PNG, GIF o WebP, máximo 2MB'. */
export const IMAGE_HINT = `${IMAGE_FORMATS_TEXT}, máximo ${IMAGE_MAX_BYTES / 1024 / 1024}MB`;

// ---------------------------------------------------------------------------------------------
// Flows' defaults

export const flowSettingsTask = z.object({
  id: z.uuid(),
  name: z.string(),
  daysToComplete: z.number().int().nullable(),
  defaultAssigneeIds: z.array(z.uuid()),
});
export const flowSettingsStage = z.object({
  id: z.uuid(),
  name: z.string(),
  tasks: z.array(flowSettingsTask),
});
export const flowSettingsWorkflow = z.object({
  id: z.uuid(),
  name: z.string(),
  /** One default assignee per task (payment flows) or several (the sale flow). */
  singleAssignee: z.boolean(),
  stages: z.array(flowSettingsStage),
});
export type FlowSettingsWorkflow = z.infer<typeof flowSettingsWorkflow>;

export const sellerOption = z.object({ id: z.uuid(), firstName: z.string(), lastName: z.string() });

/** Configuración Flujo Venta: the default seller and each sale task's default assignees. */
export const saleFlowSettingsResponse = z.object({
  defaultSellerId: z.uuid().nullable(),
  sellers: z.array(sellerOption),
  workflow: flowSettingsWorkflow,
});
export type SaleFlowSettings = z.infer<typeof saleFlowSettingsResponse>;

/** Configuración Flujo Pago: both payment flows; retired tasks are left out. */
export const paymentFlowSettingsResponse = z.object({ workflows: z.array(flowSettingsWorkflow) });
export type PaymentFlowSettings = z.infer<typeof paymentFlowSettingsResponse>;

export const defaultSellerBody = z.strictObject({ userId: uuid().nullable() });
export type DefaultSellerBody = z.input<typeof defaultSellerBody>;
export const defaultSellerResponse = z.object({ defaultSellerId: z.uuid().nullable() });

/** Replaces a task's default assignees ([] = 'Quitar Asignación'). */
export const defaultAssigneesBody = z.strictObject({ userIds: z.array(uuid()).max(50) });
export type DefaultAssigneesBody = z.input<typeof defaultAssigneesBody>;
export const defaultAssigneesResponse = z.object({
  task: z.object({ id: z.uuid(), defaultAssigneeIds: z.array(z.uuid()) }),
});
export const taskIdParams = z.strictObject({ taskId: uuid() });
