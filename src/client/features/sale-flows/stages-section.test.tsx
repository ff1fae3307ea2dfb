import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TaskStatus } from '../../../shared/domain/workflow/statuses';
import { errorCatalog } from '../../../shared/errors';
import type { SessionUser } from '../../../shared/schemas/auth';
import type { TaskCommandsView } from '../../../shared/schemas/workflows';
import { sessionQueryKey } from '../../lib/session';
import { sessionUserFixture } from '../../test/render';
import { type FlowStagesView, type FlowTaskView, StagesSection } from './stages-section';

afterEach(() => vi.unstubAllGlobals());

const person = {
  id: '00000000-0000-4000-8000-0000000000b1',
  firstName: 'Bruno',
  lastName: 'Díaz',
  avatarUrl: null,
};

const allowed = { allowed: true, reason: null };
const refused = (code: keyof typeof errorCatalog) => ({ allowed: false, reason: errorCatalog[code].message });

/** What the server says a user may do on a task: everything, unless told otherwise. */
function commands(status: TaskStatus, extra: Partial<TaskCommandsView> = {}): TaskCommandsView {
  return {
    statuses: ['pending', 'in_progress', 'completed', 'blocked'].filter((s) => s !== status) as TaskStatus[],
    status: allowed,
    assign: allowed,
    editDates: allowed,
    comment: allowed,
    approve: refused('APPROVAL_NOT_FOUND'),
    reject: refused('APPROVAL_NOT_FOUND'),
    irreversible: [],
    ...extra,
  };
}

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
    rejection: null,
    requires: [],
    commands: commands(status),
    ...extra,
  };
}

function paymentFlow(tasks: FlowTaskView[]): FlowStagesView {
  return {
    id: '00000000-0000-4000-8000-0000000000f1',
    status: 'in_progress',
    currentStageId: '00000000-0000-4000-8000-0000000000e1',
    commands: { deleteComments: refused('FORBIDDEN'), singleAssignee: true },
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

/** A completed stage (folded when the screen opens) before an open one. */
function withCompletedStage() {
  const done = task('Solicitud Liquidación', 'completed');
  const open = paymentFlow([task('VB Operaciones', 'pending')]);
  const flow: FlowStagesView = {
    ...open,
    stages: [
      { id: '00000000-0000-4000-8000-0000000000e0', name: 'Solicitud', isComplete: true, tasks: [done] },
      ...open.stages,
    ],
  };
  return { flow, done };
}

/** Where the screen is (the address a test checks). */
function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{`${location.pathname}${location.search}`}</output>;
}

function renderStages(flow: FlowStagesView, user: SessionUser, route = '/pagos/flujo/f1') {
  const sent: { url: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      if (init.method && init.method !== 'GET')
        sent.push({ url, body: init.body ? JSON.parse(String(init.body)) : null });
      return { ok: true, status: 200, json: async () => ({ users: [], comments: [] }) };
    }),
  );
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(sessionQueryKey, user);
  render(
    <MantineProvider>
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={[route]}>
          <StagesSection kind="payment" flow={flow} />
          <LocationProbe />
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
  return sent;
}

const kam = sessionUserFixture({ userType: 'KAM' });

describe('the stages of a flow', () => {
  it('disables the controls the server refuses, with its reason, and says what a blocked task waits for', () => {
    const notStarted = refused('FLOW_NOT_STARTED');
    renderStages(
      paymentFlow([
        task('Solicitud Operaciones', 'blocked', {
          defaultAssignee: person,
          waitsFor: ['VB Jefe Inversiones'],
          commands: commands('blocked', {
            statuses: [],
            status: notStarted,
            assign: notStarted,
            editDates: notStarted,
            comment: notStarted,
          }),
        }),
      ]),
      sessionUserFixture(),
    );
    const row = screen.getByRole('listitem', { name: 'Solicitud Operaciones' });
    expect(within(row).getByText('Espera: VB Jefe Inversiones')).toBeTruthy();
    const select = within(row).getByLabelText('Estado de Solicitud Operaciones') as HTMLInputElement;
    expect(select.disabled).toBe(true);
    expect(select.getAttribute('aria-description')).toBe(errorCatalog.FLOW_NOT_STARTED.message);
    expect((within(row).getByRole('button', { name: /Asignar a Bruno/ }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    expect(within(row).queryByRole('button', { name: /Editar fechas/ })).toBeNull();
    expect(within(row).getByText('2 días')).toBeTruthy();
  });

  it("says which document a task needs before anyone completes it: 'Requiere: Promesa firmada'", () => {
    renderStages(
      paymentFlow([
        task('Promesa Firmada', 'in_progress', { requires: ['Promesa firmada', 'Escritura'] }),
        task('COF', 'pending'),
      ]),
      sessionUserFixture(),
    );
    const row = screen.getByRole('listitem', { name: 'Promesa Firmada' });
    expect(within(row).getByTestId('task-requires').textContent).toBe(
      'Requiere: Promesa firmada y Escritura',
    );
    expect(within(screen.getByRole('listitem', { name: 'COF' })).queryByTestId('task-requires')).toBeNull();
  });

  it("offers the default assignee as 'Asignar a {nombre}' and assigns them in one click", async () => {
    const sent = renderStages(
      paymentFlow([task('Solicitud Operaciones', 'pending', { defaultAssignee: person })]),
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
      paymentFlow([
        task('VB Operaciones', 'pending', { assignees: [{ ...person, isActive: true }], daysToComplete: 1 }),
      ]),
      kam,
    );
    expect(within(screen.getByTestId('task-assignee')).getByText('Bruno Díaz')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Asignar a Bruno/ })).toBeNull();
    expect(screen.getByText('1 día')).toBeTruthy();
  });

  it('offers in the select only the statuses the server allows, and shows a rejection with its reason', async () => {
    renderStages(
      paymentFlow([
        task('VB Jefe Inversiones', 'blocked', {
          rejection: { by: person, at: '2026-11-20T15:30:00.000Z', reason: 'Monto no cuadra con la OC' },
          commands: commands('blocked', {
            statuses: ['blocked', 'pending', 'in_progress', 'completed'],
          }),
        }),
        task('VB Operaciones', 'pending', {
          commands: commands('pending', {
            // An approval is blocked only by 'Rechazar' with a reason.
            statuses: ['pending', 'in_progress', 'completed'],
          }),
        }),
      ]),
      sessionUserFixture(),
    );
    expect(screen.getByTestId('task-rejection').textContent).toBe(
      'Rechazada por Bruno Díaz el 20/11/2026 12:30: Monto no cuadra con la OC',
    );
    const row = screen.getByRole('listitem', { name: 'VB Operaciones' });
    fireEvent.click(within(row).getByLabelText('Estado de VB Operaciones'));
    const options = await screen.findByRole('listbox', { name: 'Estado de VB Operaciones' });
    const option = (name: string) => within(options).getByRole('option', { name, hidden: true });
    expect(option('Bloqueada').getAttribute('data-combobox-disabled')).toBe('true');
    expect(option('Completada').getAttribute('data-combobox-disabled')).toBeNull();
  });

  it('opens the comments of the task the address names (a mention’s link), its stage expanded, and forgets it once closed', async () => {
    const { flow, done } = withCompletedStage();
    renderStages(flow, kam, `/pagos/flujo/f1?comentarios=${done.id}&otra=1`);
    const dialog = await screen.findByRole('dialog', { name: 'Comentarios' });
    expect(within(dialog).getByText('Solicitud Liquidación')).toBeTruthy();
    expect(await within(dialog).findByText('No hay comentarios')).toBeTruthy();
    // The completed stage, folded otherwise, is open on the task.
    expect(screen.getByRole('listitem', { name: 'Solicitud Liquidación' })).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cerrar' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/pagos/flujo/f1?otra=1'));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Comentarios' })).toBeNull());
  });

  it('opens no comments without the parameter, and folds a completed stage', () => {
    renderStages(withCompletedStage().flow, kam);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByRole('listitem', { name: 'Solicitud Liquidación' })).toBeNull();
    expect(screen.getByRole('listitem', { name: 'VB Operaciones' })).toBeTruthy();
  });

  it("asks before a status the server says the user could not take back; 'Cancelar' changes nothing", async () => {
    const sent = renderStages(
      paymentFlow([
        task('Fecha de Pago', 'pending', {
          commands: commands('pending', {
            statuses: ['pending', 'in_progress', 'completed', 'blocked'],
            irreversible: ['completed', 'blocked'],
          }),
        }),
      ]),
      kam,
    );
    const row = screen.getByRole('listitem', { name: 'Fecha de Pago' });
    const select = within(row).getByLabelText('Estado de Fecha de Pago') as HTMLInputElement;
    const choose = async (name: string) => {
      fireEvent.click(select);
      // Hidden too: right after the confirmation closes, jsdom may still count the list as hidden.
      const options = await screen.findByRole('listbox', { name: 'Estado de Fecha de Pago', hidden: true });
      fireEvent.click(within(options).getByRole('option', { name, hidden: true }));
    };

    await choose('Completada');
    const dialog = await screen.findByRole('dialog', { name: '¿Cambiar a «Completada»?' });
    expect(dialog.textContent).toContain('La tarea Fecha de Pago pasará de «Pendiente» a «Completada».');
    expect(dialog.textContent).toContain(
      'Después usted no podrá deshacer este cambio ni volver a dejarla en «Pendiente».',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent).toEqual([]);
    expect(select.value).toBe('Pendiente');

    // 'En Proceso' can be taken back: no question.
    await choose('En Proceso');
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(sent[0]!.body).toEqual({ status: 'in_progress', version: 1 });

    await choose('Bloqueada');
    const blocking = await screen.findByRole('dialog', { name: '¿Cambiar a «Bloqueada»?' });
    fireEvent.click(within(blocking).getByRole('button', { name: 'Confirmar' }));
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1]!.body).toEqual({ status: 'blocked', version: 1 });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('asks nothing of a user who could take the change back (an administrator)', async () => {
    const sent = renderStages(paymentFlow([task('Fecha de Pago', 'pending')]), sessionUserFixture());
    const row = screen.getByRole('listitem', { name: 'Fecha de Pago' });
    fireEvent.click(within(row).getByLabelText('Estado de Fecha de Pago'));
    const options = await screen.findByRole('listbox', { name: 'Estado de Fecha de Pago' });
    fireEvent.click(within(options).getByRole('option', { name: 'Completada', hidden: true }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.body).toEqual({ status: 'completed', version: 1 });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('marks the stage under way only while the flow is in progress; a cancelled flow says where it stopped', () => {
    const flow = paymentFlow([task('VB Operaciones', 'pending')]);
    renderStages(flow, sessionUserFixture());
    expect(screen.getByText('Etapa actual')).toBeTruthy();
    cleanup();
    renderStages({ ...flow, status: 'cancelled' }, sessionUserFixture());
    expect(screen.queryByText('Etapa actual')).toBeNull();
    expect(screen.getByText('Flujo cancelado')).toBeTruthy();
  });
});
