import { formatFractionAsPercent, formatUF } from '../format';
import { type DecimalInput, dec, money } from './decimal';
/**
 * Stock (decision 0032, DESIGN §15): what a unit is and the words of its commercial status. The
 * status itself is derived in SQL only (the view `unit_statuses`, migration 0027); this file names
 * the same values for the screens, and `stock.test.ts` (API) holds them equal to the view's.
 */

export const UNIT_KINDS = ['apartment', 'parking', 'storage'] as const;
export type UnitKind = (typeof UNIT_KINDS)[number];

export const unitKindLabels: Record<UnitKind, string> = {
  apartment: 'Departamento',
  parking: 'Estacionamiento',
  storage: 'Bodega',
};

/** How a sentence names one unit: 'el departamento 1203'. */
export const unitKindNouns: Record<UnitKind, string> = {
  apartment: 'el departamento',
  parking: 'el estacionamiento',
  storage: 'la bodega',
};

/** In the order of a sale; 'Bloqueada' is an administrator's, the other three the sale flow's. */
export const UNIT_STATUSES = ['Disponible', 'Bloqueada', 'Reservada', 'Promesada', 'Escriturada'] as const;
export type UnitStatus = (typeof UNIT_STATUSES)[number];

/** The unit is taken by a live reservation (its status comes from the sale flow). */
export function isTaken(status: UnitStatus): boolean {
  return status === 'Reservada' || status === 'Promesada' || status === 'Escriturada';
}

/** 'Departamento 1203' / 'Estacionamiento E-12'. */
export function unitName(unit: { kind: UnitKind; number: string }): string {
  return `${unitKindLabels[unit.kind]} ${unit.number}`;
}

/** A project's commercial policy: null limits are not enforced. Fractions 0..1, amounts in UF. */
export interface CommercialPolicy {
  reservationAmount: string | null;
  maxColumnDiscount: string | null;
  maxAdditionalDiscount: string | null;
  maxOtherDiscount: string | null;
  maxSubsidyFraction: string | null;
}

export interface PolicyInput {
  reservationPayment: DecimalInput;
  columnDiscount: DecimalInput;
  additionalDiscount: DecimalInput;
  otherDiscount: DecimalInput;
  subsidyPayment: DecimalInput;
  /** Precio lista: the bono pie's limit is a fraction of it. */
  totalPrice: DecimalInput;
}

/**
 * What a reservation gives beyond its project's policy, one Spanish phrase per limit exceeded
 * (empty when it keeps within it). The server refuses a reservation with any, unless an
 * administrator overrides them with a reason.
 */
export function policyBreaches(policy: CommercialPolicy, input: PolicyInput): string[] {
  const breaches: string[] = [];
  if (policy.reservationAmount !== null && dec(input.reservationPayment).lt(dec(policy.reservationAmount))) {
    breaches.push(
      `el pago de reserva es menor que el monto de reserva (${formatUF(policy.reservationAmount)})`,
    );
  }
  const discounts = [
    ['columnDiscount', 'maxColumnDiscount', 'el descuento columna'],
    ['additionalDiscount', 'maxAdditionalDiscount', 'el descuento adicional'],
    ['otherDiscount', 'maxOtherDiscount', 'el otro descuento'],
  ] as const;
  for (const [field, limit, label] of discounts) {
    const max = policy[limit];
    if (max !== null && dec(input[field]).gt(dec(max))) {
      breaches.push(`${label} supera el máximo (${formatFractionAsPercent(max)})`);
    }
  }
  if (policy.maxSubsidyFraction !== null) {
    const max = dec(input.totalPrice).times(dec(policy.maxSubsidyFraction));
    if (dec(input.subsidyPayment).gt(max)) {
      breaches.push(
        `el bono pie supera el máximo (${formatFractionAsPercent(policy.maxSubsidyFraction)} del precio lista, ${formatUF(money(max))})`,
      );
    }
  }
  return breaches;
}
