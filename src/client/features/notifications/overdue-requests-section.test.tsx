import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { OverdueDataRequest } from '../../../shared/schemas/notifications';
import { renderWithProviders } from '../../test/render';
import { OverdueRequestsSection } from './overdue-requests-section';

const OVERDUE: OverdueDataRequest[] = [
  {
    id: '00000000-0000-4000-8000-0000000000e1',
    kind: 'suppression',
    holderRut: '12345678-5',
    clientName: 'Ana Rojas',
    dueDate: '2026-11-10',
    daysOverdue: 15,
  },
  {
    id: '00000000-0000-4000-8000-0000000000e2',
    kind: 'access',
    holderRut: '9876543-3',
    clientName: null,
    dueDate: '2026-11-24',
    daysOverdue: 1,
  },
];

describe('the overdue holders’ requests on /notificaciones', () => {
  it('lists each with its kind, holder and how long ago it fell due, leading to the request', () => {
    renderWithProviders(<OverdueRequestsSection requests={OVERDUE} />);
    const section = within(screen.getByRole('region', { name: 'Solicitudes de titulares vencidas' }));
    expect(section.getByText('2 solicitudes')).toBeTruthy();
    expect(section.getByRole('link', { name: 'Solicitud de Supresión' }).getAttribute('href')).toBe(
      '/configuracion/solicitudes-titulares/00000000-0000-4000-8000-0000000000e1',
    );
    expect(section.getByText('Ana Rojas')).toBeTruthy();
    expect(section.getByText('Vencida hace 15 días')).toBeTruthy();
    // A holder who is no client: the RUT.
    expect(section.getByRole('link', { name: 'Solicitud de Acceso' })).toBeTruthy();
    expect(section.getByText('9.876.543-3')).toBeTruthy();
    expect(section.getByText('Vencida hace 1 día')).toBeTruthy();
  });

  it('shows nothing when none is overdue', () => {
    renderWithProviders(<OverdueRequestsSection requests={[]} />);
    expect(screen.queryByText('Solicitudes de titulares vencidas')).toBeNull();
  });
});
