import { describe, expect, it } from 'vitest';
import { createQuoteBody, QUOTE_MESSAGES } from '../../../shared/schemas/quotes';
import { schemaErrors } from '../../lib/forms';
import { EMPTY_QUOTE, quoteBody } from './new-quote-body';

const PROJECT = '00000000-0000-4000-8000-000000000001';
const APARTMENT = '00000000-0000-4000-8000-000000000002';

describe('the new-quote form body', () => {
  it('sends percents as fractions and the choices only, which the shared schema takes', () => {
    const body = quoteBody({
      ...EMPTY_QUOTE,
      projectId: PROJECT,
      prospectName: 'Ana Prospecto',
      prospectEmail: 'ana@example.cl',
      apartmentUnitId: APARTMENT,
      columnDiscount: 3.5,
      reservationAmount: 20,
      downPaymentPercent: 20,
      installments: 10,
    });
    expect(body).toMatchObject({
      columnDiscount: '0.035000',
      additionalDiscount: '0.000000',
      downPaymentFraction: '0.200000',
      reservationAmount: '20',
      installments: 10,
      subsidyAmount: '0',
      prospectPhone: null,
      prospectRut: null,
    });
    expect(schemaErrors(createQuoteBody, body)).toEqual({});
  });

  it("refuses what is missing with the server's messages", () => {
    const errors = schemaErrors(createQuoteBody, quoteBody({ ...EMPTY_QUOTE, downPaymentPercent: '' }));
    expect(errors).toMatchObject({
      projectId: 'Seleccione un proyecto',
      prospectName: QUOTE_MESSAGES.prospectName,
      apartmentUnitId: QUOTE_MESSAGES.apartment,
      downPaymentFraction: QUOTE_MESSAGES.downPayment,
      installments: QUOTE_MESSAGES.installments,
    });
  });
});
