import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BrokerInvoiceView } from '../../../shared/schemas/broker-invoices';
import { InvoiceDialog } from './invoice-dialog';

afterEach(() => vi.unstubAllGlobals());

const FLOW_ID = '00000000-0000-4000-8000-0000000000f1';
const TASK_ID = '00000000-0000-4000-8000-0000000000a1';

const recorded: BrokerInvoiceView = {
  id: '00000000-0000-4000-8000-0000000000b1',
  kind: 'taxed',
  issuerRut: '76543210-3',
  folio: '1234',
  issueDate: '2026-11-16',
  receivedDate: '2026-11-20',
  netAmount: '3361345',
  vatAmount: '638656',
  totalAmount: '4000001',
  grossAmount: null,
  withholdingAmount: null,
  payableAmount: null,
  source: 'xml',
  version: 2,
  acceptance: null,
};

function renderDialog(invoice: BrokerInvoiceView | null) {
  const sent: { method: string; body: Record<string, unknown> }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_url: string, init: RequestInit = {}) => {
      sent.push({ method: init.method ?? 'GET', body: JSON.parse(String(init.body)) });
      return { ok: true, status: 200, json: async () => ({ task: {} }) };
    }),
  );
  const onClose = vi.fn();
  render(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient()}>
        <InvoiceDialog
          flowId={FLOW_ID}
          taskRowId={TASK_ID}
          brokerRut="76543210-3"
          invoice={invoice}
          onClose={onClose}
        />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { sent, onClose, dialog: screen.getByRole('dialog') };
}

describe('the invoice typed by hand', () => {
  it('corrects the recorded figures with their version (PUT), as whole pesos', async () => {
    const { sent, onClose, dialog } = renderDialog(recorded);
    expect(within(dialog).getByText('Corregir factura del broker')).toBeTruthy();
    expect((within(dialog).getByLabelText(/RUT emisor/) as HTMLInputElement).value).toBe('76.543.210-3');
    expect((within(dialog).getByLabelText(/^Total/) as HTMLInputElement).value).toBe('4.000.001');
    fireEvent.change(within(dialog).getByLabelText(/^Folio/), { target: { value: '1235' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(sent).toEqual([
      {
        method: 'PUT',
        body: {
          kind: 'taxed',
          issuerRut: '76.543.210-3',
          folio: '1235',
          issueDate: '2026-11-16',
          receivedDate: '2026-11-20',
          netAmount: '3361345',
          vatAmount: '638656',
          totalAmount: '4000001',
          version: 2,
        },
      },
    ]);
  });

  it('asks for what is missing before sending anything', async () => {
    const { sent, dialog } = renderDialog(null);
    expect(within(dialog).getByText('Ingresar factura del broker')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await within(dialog).findByText('Ingrese un folio numérico (hasta 10 dígitos)')).toBeTruthy();
    expect(within(dialog).getAllByText('Ingrese el monto')).toHaveLength(3);
    expect(sent).toHaveLength(0);
  });
});
