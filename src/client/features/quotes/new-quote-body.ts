import { percentToFraction } from '../../../shared/domain/pricing';
import type { CreateQuoteBody } from '../../../shared/schemas/quotes';
import { toAmount } from '../../components/money-input';

/** The new-quote form's values (issue 59). */
export interface NewQuoteValues {
  projectId: string | null;
  prospectName: string;
  prospectEmail: string;
  prospectPhone: string;
  prospectRut: string;
  apartmentUnitId: string | null;
  parkingUnitIds: string[];
  storageUnitIds: string[];
  /** Discounts and the pie are typed as percents (0–100) and sent as fractions. */
  columnDiscount: number | string;
  additionalDiscount: number | string;
  otherDiscount: number | string;
  reservationAmount: number | string;
  downPaymentPercent: number | string;
  installments: number | string;
  subsidyAmount: number | string;
}

export const EMPTY_QUOTE: NewQuoteValues = {
  projectId: null,
  prospectName: '',
  prospectEmail: '',
  prospectPhone: '',
  prospectRut: '',
  apartmentUnitId: null,
  parkingUnitIds: [],
  storageUnitIds: [],
  columnDiscount: 0,
  additionalDiscount: 0,
  otherDiscount: 0,
  reservationAmount: 0,
  downPaymentPercent: 20,
  installments: '',
  subsidyAmount: 0,
};

/** A percent typed as the fraction the API takes; text that is no number is sent as typed, for the schema to refuse. */
function fractionOf(percent: number | string): string {
  if (percent === '') return percentToFraction(0);
  try {
    return percentToFraction(percent);
  } catch {
    return String(percent);
  }
}

/** The request body for the form's values: nothing is priced here, the server prices on save. */
export function quoteBody(values: NewQuoteValues): CreateQuoteBody {
  return {
    projectId: values.projectId ?? '',
    prospectName: values.prospectName,
    prospectEmail: values.prospectEmail,
    prospectPhone: values.prospectPhone || null,
    prospectRut: values.prospectRut || null,
    apartmentUnitId: values.apartmentUnitId ?? '',
    parkingUnitIds: values.parkingUnitIds,
    storageUnitIds: values.storageUnitIds,
    columnDiscount: fractionOf(values.columnDiscount),
    additionalDiscount: fractionOf(values.additionalDiscount),
    otherDiscount: fractionOf(values.otherDiscount),
    reservationAmount: toAmount(values.reservationAmount) || '0',
    downPaymentFraction: values.downPaymentPercent === '' ? '' : fractionOf(values.downPaymentPercent),
    installments: values.installments === '' ? Number.NaN : Number(values.installments),
    subsidyAmount: toAmount(values.subsidyAmount) || '0',
  };
}
