import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RISK_REASON_MESSAGE } from '../../../shared/schemas/payments';
import { RiskDialog, riskReasonProblem } from './risk-dialog';

afterEach(() => vi.unstubAllGlobals());

const FLOW_ID = '00000000-0000-4000-8000-0000000000f1';

function renderDialog(commission: { atRisk: boolean; atRiskReason: string | null; version: number }) {
  const sent: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_url: string, init: RequestInit = {}) => {
      const body = JSON.parse(String(init.body));
      sent.push(body);
      return {
        ok: true,
        status: 200,
        json: async () => ({ commission: { atRisk: body.atRisk, atRiskReason: body.reason, version: 2 } }),
      };
    }),
  );
  const onClose = vi.fn();
  const queryClient = new QueryClient();
  render(
    <MantineProvider>
      <QueryClientProvider client={queryClient}>
        <RiskDialog opened flowId={FLOW_ID} commission={commission} onClose={onClose} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { sent, onClose };
}

describe('the at-risk popup', () => {
  it('needs a reason only while at risk', () => {
    expect(riskReasonProblem({ atRisk: true, reason: '  ', version: 1 })).toBe(RISK_REASON_MESSAGE);
    expect(riskReasonProblem({ atRisk: true, reason: 'Broker sin factura', version: 1 })).toBeNull();
    expect(riskReasonProblem({ atRisk: false, reason: null, version: 1 })).toBeNull();
  });

  it("marks at risk with 'Motivo del Riesgo *' required", async () => {
    const { sent, onClose } = renderDialog({ atRisk: false, atRiskReason: null, version: 4 });
    expect(screen.getByText('Marcar En Riesgo')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText(RISK_REASON_MESSAGE)).toBeTruthy();
    expect(sent).toHaveLength(0);
    fireEvent.change(screen.getByLabelText(/Motivo del Riesgo/), { target: { value: 'Factura observada' } });
    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(sent).toEqual([{ atRisk: true, reason: 'Factura observada', version: 4 }]);
  });

  it('clears the reason when unchecked', async () => {
    const { sent, onClose } = renderDialog({ atRisk: true, atRiskReason: 'Factura observada', version: 5 });
    expect(screen.getByText('Editar Estado Riesgo')).toBeTruthy();
    expect((screen.getByLabelText(/Motivo del Riesgo/) as HTMLTextAreaElement).value).toBe(
      'Factura observada',
    );
    fireEvent.click(screen.getByLabelText('Comisión en riesgo'));
    expect(screen.queryByLabelText(/Motivo del Riesgo/)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(sent).toEqual([{ atRisk: false, reason: null, version: 5 }]);
  });
});
