import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TaskStatus } from '../../../shared/domain/workflow/statuses';
import { errorCatalog } from '../../../shared/errors';
import type { SessionUser } from '../../../shared/schemas/auth';
import { sessionQueryKey } from '../../lib/session';
import { sessionUserFixture } from '../../test/render';
import { type FlowStagesView, type FlowTaskView, StagesSection, taskLockReason } from './stages-section';

afterEach(() => vi.unstubAllGlobals());

const person = {
  id: '00000000-0000-4000-8000-0000000000b1',
  firstName: 'Bruno',
  lastName: 'Díaz',
  avatarUrl: null,
};

function task(name: string, status: TaskStatus, extra: Partial<FlowTaskView> = {}): FlowTaskView {
  return {
    id: `00000000-0000-4000-8000-${String(name.length).padStart(12, '0')}`,
    taskId: '00000000-0000-4000-8000-0000000000d1',
    name,
    status,
    startedAt: null,
    completedAt: null,
    daysManaged: null,
    daysToComplete: 2,
    daysLate: 0,
    assignees: [],
    commentCount: 0,
    version: 1,
    defaultAssignee: null,
    waitsFor: [],
    ...extra,
  };
}

function paymentFlow(status: FlowStagesView['status'], tasks: FlowTaskView[]): FlowStagesView {
  return {
    id: '00000000-0000-4000-8000-0000000000f1',
    status,
    currentStageId: '00000000-0000-4000-8000-0000000000e1',
    reservation: { isRescinded: false },
    stages: [
      {
        id: '00000000-0000-4000-8000-0000000000e1',
        name: 'Aprobación Operaciones',
        isComplete: false,
        tasks,
      },
    ],
  };
}

function renderStages(flow: FlowStagesView, user: SessionUser) {
  const sent: { url: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      if (init.method && init.method !== 'GET')
        sent.push({ url, body: init.body ? JSON.parse(String(init.body)) : null });
      return { ok: true, status: 200, json: async () => ({ users: [] }) };
    }),
  );
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(sessionQueryKey, user);
  render(
    <MantineProvider>
      <QueryClientProvider client={queryClient}>
        <MemoryRouter>
          <StagesSection kind="payment" flow={flow} />
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
  return sent;
}

const kam = sessionUserFixture({ userType: 'KAM', isAdmin: false });

describe('the stages of a flow', () => {
  it('locks every task of a pending payment flow, a completed task and a waiting payment task for non-administrators', () => {
    const lock = (
      kind: 'sale' | 'payment',
      flowStatus: FlowStagesView['status'],
      status: TaskStatus,
      isAdmin: boolean,
    ) => taskLockReason({ kind, flowStatus, task: { status }, isAdmin });
    expect(lock('payment', 'pending', 'blocked', true)).toBe(errorCatalog.FLOW_NOT_STARTED.message);
    expect(lock('payment', 'in_progress', 'blocked', false)).toBe(errorCatalog.TASK_BLOCKED.message);
    expect(lock('payment', 'in_progress', 'blocked', true)).toBeNull();
    expect(lock('payment', 'in_progress', 'pending', false)).toBeNull();
    expect(lock('sale', 'in_progress', 'completed', false)).toBe(
      errorCatalog.TASK_COMPLETED_ADMIN_ONLY.message,
    );
    // A sale task set to blocked by hand waits for nothing: anyone may change it.
    expect(lock('sale', 'in_progress', 'blocked', false)).toBeNull();
  });

  it('disables the controls of a pending flow and says what a blocked task waits for', () => {
    renderStages(
      paymentFlow('pending', [
        task('Solicitud Operaciones', 'blocked', {
          defaultAssignee: person,
          waitsFor: ['VB Jefe Inversiones'],
        }),
      ]),
      sessionUserFixture(),
    );
    const row = screen.getByRole('listitem', { name: 'Solicitud Operaciones' });
    expect(within(row).getByText('Espera: VB Jefe Inversiones')).toBeTruthy();
    expect((within(row).getByLabelText('Estado de Solicitud Operaciones') as HTMLInputElement).disabled).toBe(
      true,
    );
    expect((within(row).getByRole('button', { name: /Asignar a Bruno/ }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    expect(within(row).queryByRole('button', { name: /Editar fechas/ })).toBeNull();
    expect(within(row).getByText('2 días')).toBeTruthy();
  });

  it("offers the default assignee as 'Asignar a {nombre}' and assigns them in one click", async () => {
    const sent = renderStages(
      paymentFlow('in_progress', [task('Solicitud Operaciones', 'pending', { defaultAssignee: person })]),
      kam,
    );
    fireEvent.click(screen.getByRole('button', { name: /Asignar a Bruno/ }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({
      url: '/api/payment-flows/00000000-0000-4000-8000-0000000000f1/tasks/00000000-0000-4000-8000-000000000021/assignees',
      body: { userId: person.id },
    });
  });

  it('shows the one responsible of a payment task by name', () => {
    renderStages(
      paymentFlow('in_progress', [
        task('VB Operaciones', 'pending', { assignees: [{ ...person, isActive: true }], daysToComplete: 1 }),
      ]),
      kam,
    );
    expect(within(screen.getByTestId('task-assignee')).getByText('Bruno Díaz')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Asignar a Bruno/ })).toBeNull();
    expect(screen.getByText('1 día')).toBeTruthy();
  });
});
