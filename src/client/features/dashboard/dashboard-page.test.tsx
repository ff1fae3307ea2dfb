import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { DashboardData } from '../../../shared/schemas/dashboard';
import { renderWithProviders } from '../../test/render';
import { DashboardContent, MonthChange, paymentStatus } from './dashboard-page';

const months = ['2025-10', '2025-11', '2025-12', '2026-01', '2026-02', '2026-03'];
const empty: DashboardData = {
  totals: { reservations: 0, clients: 0, projects: 0, brokers: 0 },
  monthlyStats: {
    month: '2026-03',
    reservations: 0,
    previousReservations: 0,
    reservationsChange: 100,
    commissions: '0.00',
    previousCommissions: '0.00',
  },
  monthlyReservations: months.map((month) => ({ month, count: 0 })),
  monthlyCommissions: months.map((month) => ({ month, amount: '0.00' })),
  projectStats: [],
  brokerStats: [],
  recentReservations: [],
  recentPayments: [],
};

describe('dashboard', () => {
  it('shows the change versus the previous month as an absolute percent coloured by its sign', () => {
    renderWithProviders(
      <>
        <MonthChange change={50} />
        <MonthChange change={-33} />
        <MonthChange change={0} />
      </>,
    );
    const changes = screen.getAllByTestId('month-change');
    expect(changes.map((change) => change.textContent)).toEqual(['50 %', '33 %', '0 %']);
    expect(changes.map((change) => change.dataset.sign)).toEqual(['positive', 'negative', 'zero']);
    expect(screen.getAllByText('vs mes anterior')).toHaveLength(3);
  });

  it('labels a payment Completado, with its current task, or Pendiente', () => {
    expect(paymentStatus({ status: 'completed', currentTaskName: null }).label).toBe('Completado');
    expect(paymentStatus({ status: 'in_progress', currentTaskName: 'VB Jefe Inversiones' }).label).toBe(
      'VB Jefe Inversiones',
    );
    expect(paymentStatus({ status: 'pending', currentTaskName: null }).label).toBe('Pendiente');
  });

  it('says so in Spanish when there is nothing yet, with six Spanish month labels', () => {
    renderWithProviders(<DashboardContent data={empty} />);
    for (const text of [
      'Sin reservas en los últimos 6 meses',
      'Sin comisiones en los últimos 6 meses',
      'Aún no hay proyectos registrados',
      'Aún no hay reservas con broker',
      'Aún no hay reservas',
      'Aún no hay pagos de comisiones',
    ]) {
      expect(screen.getByText(text)).toBeTruthy();
    }
    const bars = screen.getByTestId('monthly-reservations').querySelectorAll('li');
    expect([...bars].map((bar) => bar.getAttribute('aria-label'))).toEqual([
      'oct 2025: 0 reservas',
      'nov 2025: 0 reservas',
      'dic 2025: 0 reservas',
      'ene 2026: 0 reservas',
      'feb 2026: 0 reservas',
      'mar 2026: 0 reservas',
    ]);
  });
});
