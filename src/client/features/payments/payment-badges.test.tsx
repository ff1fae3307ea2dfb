import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { PaymentListRow } from '../../../shared/schemas/payments';
import { renderWithProviders } from '../../test/render';
import { CommissionCell, PaymentBadge, splitText } from './payment-badges';

const commission = (overrides: Partial<NonNullable<PaymentListRow['commission']>> = {}) => ({
  id: '00000000-0000-4000-8000-0000000000c1',
  commissionAmount: '119.00',
  netCommission: '100.00',
  numberOfPayments: 1 as const,
  firstPaymentPercentage: 100 as const,
  atRisk: false,
  ...overrides,
});

describe('the payments list cells', () => {
  it("says 'Sin comisión' when the reservation has none", () => {
    renderWithProviders(<CommissionCell commission={null} />);
    expect(screen.getByText('Sin comisión')).toBeTruthy();
  });

  it('shows the gross and net amounts in UF, and no split for one payment', () => {
    renderWithProviders(<CommissionCell commission={commission({ commissionAmount: '1234.5' })} />);
    expect(screen.getByText('UF 1.234,50')).toBeTruthy();
    expect(screen.getByText('Neta UF 100,00')).toBeTruthy();
    expect(screen.queryByText(/2 pagos/)).toBeNull();
    expect(screen.queryByText('En Riesgo')).toBeNull();
  });

  it('shows the split percentages of a two-payment commission and its at-risk flag', () => {
    renderWithProviders(
      <CommissionCell
        commission={commission({ numberOfPayments: 2, firstPaymentPercentage: 25, atRisk: true })}
      />,
    );
    expect(screen.getByText('2 pagos: 25,00 % / 75,00 %')).toBeTruthy();
    expect(screen.getByText('En Riesgo')).toBeTruthy();
    expect(splitText(50)).toBe('50,00 % / 50,00 %');
  });

  it('labels each payment standing in Spanish, named by its payment', () => {
    renderWithProviders(
      <>
        <PaymentBadge label="Pago 1" standing="completed" />
        <PaymentBadge label="Pago 2" standing="in_progress" />
        <PaymentBadge label="Pago 1" standing="pending" />
        <PaymentBadge label="Pago 2" standing="cancelled" />
      </>,
    );
    expect(screen.getByLabelText('Pago 1: Completado')).toBeTruthy();
    expect(screen.getByLabelText('Pago 2: En Proceso')).toBeTruthy();
    expect(screen.getByLabelText('Pago 1: Pendiente')).toBeTruthy();
    expect(screen.getByLabelText('Pago 2: Cancelado')).toBeTruthy();
  });
});
