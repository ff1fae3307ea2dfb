/** Bank account types of agencies and promotion beneficiaries (spec part 2 §3, §9). */
export const ACCOUNT_TYPES = ['Cuenta Corriente', 'Cuenta Vista', 'Cuenta de Ahorro'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];
