import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  RESCISSION_CONFIRMATION_MESSAGE,
  RESCISSION_REASON_MESSAGE,
  type RescissionPreview,
} from '../../../shared/schemas/payments';
import { RescissionDialog, rescissionProblems } from './rescission-dialog';

afterEach(() => vi.unstubAllGlobals());

const RESERVATION_ID = '00000000-0000-4000-8000-0000000000a1';

function stubApi(preview: Partial<RescissionPreview> = {}) {
  const calls: { url: string; method: string; body: unknown }[] = [];
  const fetchMock = vi.fn(async (url: string, init: RequestInit = {}) => {
    calls.push({ url, method: init.method ?? 'GET', body: init.body ? JSON.parse(String(init.body)) : null });
    const body = url.endsWith('/rescission-preview')
      ? {
          preview: {
            reservationNumber: 'R-77',
            isRescinded: false,
            hasCommission: true,
            isCommissionPaid: true,
            penaltyAmount: '60.00',
            openFlows: 2,
            ...preview,
          },
        }
      : {
          rescission: {
            reservationId: RESERVATION_ID,
            rescindedAt: '2026-05-04T15:00:00.000Z',
            reason: 'Desistimiento',
            penaltyAmount: '60.00',
            cancelledFlows: 2,
          },
        };
    return { ok: true, status: 200, json: async () => body };
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

function renderWizard(onClose = vi.fn()) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <MantineProvider>
      <QueryClientProvider client={queryClient}>
        <RescissionDialog opened reservationId={RESERVATION_ID} reservationNumber="R-77" onClose={onClose} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return onClose;
}

describe('the rescission wizard', () => {
  it('accepts exactly CONFIRMAR or CONFIRMACIÓN, and needs a reason', () => {
    const ok = (confirmation: string) => rescissionProblems({ reason: 'x', confirmation }, 2);
    expect(ok('CONFIRMAR')).toEqual({});
    expect(ok('CONFIRMACIÓN')).toEqual({});
    for (const wrong of ['confirmar', 'CONFIRMAR ', 'CONFIRMACION', '', 'SI']) {
      expect(ok(wrong)).toEqual({ confirmation: RESCISSION_CONFIRMATION_MESSAGE });
    }
    expect(rescissionProblems({ reason: '   ', confirmation: '' }, 1)).toEqual({
      reason: RESCISSION_REASON_MESSAGE,
    });
  });

  it('asks for the reason, then the confirmation, and sends the penalty when chosen', async () => {
    const calls = stubApi();
    const onClose = renderWizard();
    expect(screen.getByText('Paso 1 de 2 · Motivo')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
    expect(await screen.findByText(RESCISSION_REASON_MESSAGE)).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/Motivo de la resciliación/), {
      target: { value: 'Desistimiento del cliente' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Siguiente' }));

    expect(await screen.findByText('Paso 2 de 2 · Confirmación')).toBeTruthy();
    expect(screen.getByText('Esta acción es irreversible')).toBeTruthy();
    const penalty = await screen.findByLabelText('Aplicar multa por comisión pagada (UF 60,00)');
    fireEvent.click(penalty);
    const confirmation = screen.getByLabelText(/Para confirmar, escriba CONFIRMAR o CONFIRMACIÓN/);
    fireEvent.change(confirmation, { target: { value: 'confirmar' } });
    fireEvent.click(screen.getByRole('button', { name: 'Resciliar Reserva' }));
    expect(await screen.findByText(RESCISSION_CONFIRMATION_MESSAGE)).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);

    fireEvent.change(confirmation, { target: { value: 'CONFIRMACIÓN' } });
    fireEvent.click(screen.getByRole('button', { name: 'Resciliar Reserva' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls.find((call) => call.method === 'POST')).toEqual({
      url: `/api/reservations/${RESERVATION_ID}/rescission`,
      method: 'POST',
      body: { reason: 'Desistimiento del cliente', confirmation: 'CONFIRMACIÓN', applyPenalty: true },
    });
  });

  it('offers no penalty when the commission has no payment dated', async () => {
    stubApi({ isCommissionPaid: false, penaltyAmount: null });
    renderWizard();
    fireEvent.change(screen.getByLabelText(/Motivo de la resciliación/), { target: { value: 'Otro' } });
    fireEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
    expect(await screen.findByText(/se cancelarán sus 2 flujos abiertos/)).toBeTruthy();
    expect(screen.queryByLabelText(/Aplicar multa/)).toBeNull();
  });
});
