import { describe, expect, it } from 'vitest';
import { emptyReservationValues, previewFigures, reservationBody } from './reservation-form';

const CLIENT = '00000000-0000-4000-8000-000000000001';

describe('the reservation form as a request', () => {
  it('sends discounts typed as percent as fractions, and empty amounts as zero', () => {
    const values = {
      ...emptyReservationValues(null, '2026-11-21'),
      reservationNumber: 'R-1',
      projectId: '00000000-0000-4000-8000-000000000002',
      apartmentNumber: '1204',
      apartmentPrice: 3000,
      parkingPrice: '',
      columnDiscount: 5,
      additionalDiscount: 2.5,
      otherDiscount: '',
    };
    const body = reservationBody(values, CLIENT);
    expect(body).toMatchObject({
      clientId: CLIENT,
      apartmentPrice: '3000',
      parkingPrice: '0',
      columnDiscount: '0.050000',
      additionalDiscount: '0.025000',
      otherDiscount: '0.000000',
      parkingNumber: null,
      brokerId: null,
    });
    // 3000 × 0.95 × 0.975 = 2778.75
    expect(previewFigures(values)?.minimumPrice).toBe('2778.75');
  });

  it('never sends a broker for a sale without broker', () => {
    const values = {
      ...emptyReservationValues(null, '2026-11-21'),
      isWithBroker: false,
      brokerId: '00000000-0000-4000-8000-000000000003',
    };
    expect(reservationBody(values, CLIENT).brokerId).toBeNull();
  });

  it('leaves a missing apartment price empty so the schema can say so, and previews zero meanwhile', () => {
    const values = emptyReservationValues('00000000-0000-4000-8000-000000000004', '2026-11-21');
    expect(reservationBody(values, CLIENT)).toMatchObject({ apartmentPrice: '', sellerId: values.sellerId });
    expect(previewFigures(values)?.minimumPrice).toBe('0.00');
  });
});
