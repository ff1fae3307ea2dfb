import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { InboxTask } from '../../../shared/schemas/notifications';
import { renderWithProviders } from '../../test/render';
import { startText, TaskCard } from './task-card';

const task: InboxTask = {
  id: '00000000-0000-4000-8000-000000000001',
  flowId: '00000000-0000-4000-8000-000000000002',
  kind: 'sale',
  isSecondPayment: false,
  taskName: 'PENDIENTE ORIGEN DE FONDOS',
  stageName: 'Promesa',
  status: 'pending',
  reservationId: '00000000-0000-4000-8000-000000000003',
  reservationNumber: '1204',
  apartmentNumber: '804',
  projectName: 'Edificio Alameda',
  projectStage: 'Etapa 1',
  clientName: 'Juan Pérez',
  brokerName: null,
  assignee: null,
  assignedAt: '2027-03-12T13:42:00.000Z',
  startedAt: null,
  flowStageName: 'Reserva',
  daysSinceStart: null,
  daysToComplete: null,
  daysLate: 0,
};

describe('TaskCard', () => {
  it('says a task of a stage not reached yet has not begun, and where the flow is', () => {
    renderWithProviders(<TaskCard task={task} showAssignee={false} />);
    expect(screen.getByTestId('task-card-start').textContent).toBe(
      'Asignada · aún no comienza (flujo en Reserva)',
    );
    expect(screen.getByText('Sin iniciar')).toBeTruthy();
  });

  it('says when a started task began', () => {
    expect(startText({ startedAt: '2027-03-12T13:42:00.000Z', flowStageName: 'Promesa' })).toBe(
      'Iniciada el 12/03/2027',
    );
    expect(startText({ startedAt: null, flowStageName: null })).toBe('Asignada · aún no comienza');
  });
});
