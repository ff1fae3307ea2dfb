import { describe, expect, it } from 'vitest';
import { paymentTypeText } from './payment-info-card';
import { currentStageText } from './process-status-card';

describe('the payment flow screen in words', () => {
  it('names where the flow stands: not started, its stage, completed or cancelled', () => {
    expect(currentStageText({ status: 'pending', currentStageName: 'Solicitud Liquidación' })).toBe(
      'No iniciado',
    );
    expect(currentStageText({ status: 'in_progress', currentStageName: 'Pago' })).toBe('Pago');
    expect(currentStageText({ status: 'completed', currentStageName: null })).toBe('Completado');
    expect(currentStageText({ status: 'cancelled', currentStageName: 'Pago' })).toBe('Cancelado');
  });

  it('says which share of a two-payment commission the flow pays', () => {
    const commission = { paymentPercentage: 25 } as Parameters<typeof paymentTypeText>[0]['commission'];
    expect(paymentTypeText({ isSecondPayment: false, commission })).toBe('Primer pago (25,00 %)');
    expect(
      paymentTypeText({ isSecondPayment: true, commission: { ...commission, paymentPercentage: 75 } }),
    ).toBe('Segundo pago (75,00 %)');
  });
});
