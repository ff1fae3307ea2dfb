import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { InvoiceTaskView } from '../../../shared/schemas/broker-invoices';
import { BrokerInvoiceSection } from './broker-invoice-section';

afterEach(() => vi.unstubAllGlobals());

const FLOW_ID = '00000000-0000-4000-8000-0000000000f1';
const TASK_ID = '00000000-0000-4000-8000-0000000000a1';
const RESERVATION_ID = '00000000-0000-4000-8000-0000000000c1';
const BLOCK =
  'La factura del broker no cuadra con el pago (Total): un administrador debe aceptar la diferencia, con un motivo, antes de completar la tarea.';

const mismatched = (flags: Partial<InvoiceTaskView> = {}): InvoiceTaskView => ({
  taskRowId: TASK_ID,
  taskName: 'Recepción Factura Broker',
  taskStatus: 'pending',
  broker: { name: 'Propiedades Andes', rut: '76543210-3' },
  expected: {
    clp: '4000000',
    basis: 'issueDate',
    ufValue: '40000.00',
    ufDate: '2026-11-16',
    includesVat: true,
  },
  invoice: {
    id: '00000000-0000-4000-8000-0000000000b1',
    kind: 'taxed',
    issuerRut: '76543210-3',
    folio: '1234',
    issueDate: '2026-11-16',
    receivedDate: '2026-11-20',
    netAmount: '3361345',
    vatAmount: '638656',
    totalAmount: '3990000',
    grossAmount: null,
    withholdingAmount: null,
    payableAmount: null,
    source: 'xml',
    version: 3,
    acceptance: null,
  },
  check: {
    matches: false,
    lines: [
      {
        key: 'issuerRut',
        label: 'RUT emisor',
        expected: '76543210-3',
        received: '76543210-3',
        matches: true,
        note: null,
      },
      { key: 'net', label: 'Neto', expected: '3361345', received: '3361345', matches: true, note: null },
      { key: 'vat', label: 'IVA (19 %)', expected: '638656', received: '638656', matches: true, note: null },
      { key: 'total', label: 'Total', expected: '4000000', received: '3990000', matches: false, note: null },
    ],
  },
  claim: {
    deadline: '2026-11-28',
    daysLeft: 8,
    isExpired: false,
    label: 'Quedan 8 días para reclamar la factura',
  },
  foliosShown: true,
  completionBlock: BLOCK,
  canRecord: true,
  canAccept: false,
  ...flags,
});

function renderSection(task: InvoiceTaskView) {
  const sent: { url: string; method: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      if (method === 'GET') return { ok: true, status: 200, json: async () => ({ tasks: [task] }) };
      sent.push({ url, method, body: JSON.parse(String(init.body)) });
      return { ok: true, status: 200, json: async () => ({ task }) };
    }),
  );
  render(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>
          <BrokerInvoiceSection flowId={FLOW_ID} reservationId={RESERVATION_ID} />
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { sent };
}

describe("the broker's invoice panel", () => {
  it('shows the check line by line, the countdown and why the task cannot be completed', async () => {
    renderSection(mismatched());
    const panel = await screen.findByTestId('broker-invoice');
    const total = within(panel).getByTestId('invoice-line-total');
    expect(total.getAttribute('data-matches')).toBe('false');
    expect(total.textContent).toContain('$ 4.000.000');
    expect(total.textContent).toContain('$ 3.990.000');
    expect(within(panel).getByTestId('invoice-line-net').getAttribute('data-matches')).toBe('true');
    expect(within(panel).getByTestId('invoice-claim').textContent).toBe(
      'Quedan 8 días para reclamar la factura',
    );
    expect(within(panel).getByTestId('invoice-block').textContent).toBe(BLOCK);
    expect(within(panel).getByText('No cuadra con el pago')).toBeTruthy();
  });

  it('offers what the server allows: recording for the payments team, acceptance for an administrator', async () => {
    renderSection(mismatched());
    const panel = await screen.findByTestId('broker-invoice');
    expect(within(panel).getByRole('button', { name: 'Reemplazar con XML' })).toBeTruthy();
    expect(within(panel).queryByRole('button', { name: 'Aceptar diferencia' })).toBeNull();
  });

  it('shows no buttons to a reader, and sends the acceptance with its reason and version', async () => {
    const { sent } = renderSection(mismatched({ canRecord: false, canAccept: true }));
    const panel = await screen.findByTestId('broker-invoice');
    expect(within(panel).queryByRole('button', { name: 'Reemplazar con XML' })).toBeNull();
    expect(within(panel).queryByRole('button', { name: 'Corregir a mano' })).toBeNull();
    expect(within(panel).getByRole('link', { name: 'PDF en Documentos' }).getAttribute('href')).toBe(
      `/reservas/${RESERVATION_ID}/documentos`,
    );
    fireEvent.click(within(panel).getByRole('button', { name: 'Aceptar diferencia' }));
    const dialog = await screen.findByRole('dialog', { name: 'Aceptar diferencia de la factura' });
    // No reason typed (or only spaces): the button stays disabled (issue 53); Enter sends nothing either.
    const button = within(dialog).getByRole('button', { name: 'Aceptar diferencia' });
    expect(button.hasAttribute('disabled')).toBe(true);
    fireEvent.change(within(dialog).getByLabelText(/Motivo/), { target: { value: '   ' } });
    expect(button.hasAttribute('disabled')).toBe(true);
    fireEvent.submit(button.closest('form')!);
    expect(sent).toHaveLength(0);
    fireEvent.change(within(dialog).getByLabelText(/Motivo/), { target: { value: 'Redondeo del broker' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Aceptar diferencia' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({
      url: `/api/payment-flows/${FLOW_ID}/tasks/${TASK_ID}/invoice/acceptance`,
      method: 'POST',
      body: { reason: 'Redondeo del broker', version: 3 },
    });
  });

  it('says when no invoice is recorded yet', async () => {
    renderSection(
      mismatched({ invoice: null, check: null, claim: null, expected: null, completionBlock: null }),
    );
    const panel = await screen.findByTestId('broker-invoice');
    expect(panel.textContent).toContain('Aún no se registra la factura del broker de este pago.');
    expect(within(panel).getByText('Sin factura')).toBeTruthy();
    expect(within(panel).getByRole('button', { name: 'Subir XML' })).toBeTruthy();
  });
});
