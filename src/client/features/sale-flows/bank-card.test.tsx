import { MantineProvider } from '@mantine/core';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { SaleFlowDetail } from '../../../shared/schemas/sale-flows';
import { BankCard } from './bank-card';

// Issue 28 §2: a live refresh does not overwrite what is being typed.

const wrapper = ({ children }: { children: ReactNode }) => <MantineProvider>{children}</MantineProvider>;
const renderCard = (ui: ReactNode) => render(ui, { wrapper });

function flowWith(reservation: Partial<SaleFlowDetail['reservation']>): SaleFlowDetail {
  return {
    reservation: {
      bankName: 'Banco Estado',
      bankExecutive: 'Pía Ruiz',
      bankExecutiveEmail: null,
      bankExecutivePhone: null,
      isRescinded: false,
      version: 1,
      ...reservation,
    },
  } as SaleFlowDetail;
}

describe('Banco Escrituración', () => {
  it('follows the record while nothing is typed', () => {
    const onSave = vi.fn(async () => undefined);
    const view = renderCard(<BankCard flow={flowWith({})} onSave={onSave} saving={false} />);
    view.rerender(
      <BankCard flow={flowWith({ bankName: 'Banco de Chile', version: 2 })} onSave={onSave} saving={false} />,
    );
    expect(screen.getByLabelText('Banco')).toHaveProperty('value', 'Banco de Chile');
    expect(screen.queryByTestId('bank-changed')).toBeNull();
  });

  it('keeps what was typed when someone else changes the reservation, says so, and saves against the version it started from', async () => {
    const onSave = vi.fn(async () => undefined);
    const view = renderCard(<BankCard flow={flowWith({})} onSave={onSave} saving={false} />);
    fireEvent.change(screen.getByLabelText('Ejecutivo'), { target: { value: 'Marta Soto' } });
    view.rerender(
      <BankCard flow={flowWith({ bankName: 'Banco de Chile', version: 2 })} onSave={onSave} saving={false} />,
    );
    expect(screen.getByLabelText('Ejecutivo')).toHaveProperty('value', 'Marta Soto');
    expect(screen.getByLabelText('Banco')).toHaveProperty('value', 'Banco Estado');
    expect(screen.getByTestId('bank-changed').textContent).toContain('Otra persona cambió esta reserva');

    fireEvent.click(screen.getByRole('button', { name: 'Guardar Banco' }));
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    expect(onSave).toHaveBeenCalledWith(
      {
        bankName: 'Banco Estado',
        bankExecutive: 'Marta Soto',
        bankExecutiveEmail: null,
        bankExecutivePhone: null,
      },
      1,
    );
  });

  it('loads the current data on request, discarding what was typed', () => {
    const onSave = vi.fn(async () => undefined);
    const view = renderCard(<BankCard flow={flowWith({})} onSave={onSave} saving={false} />);
    fireEvent.change(screen.getByLabelText('Ejecutivo'), { target: { value: 'Marta Soto' } });
    view.rerender(
      <BankCard flow={flowWith({ bankName: 'Banco de Chile', version: 2 })} onSave={onSave} saving={false} />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Cargar los datos actuales' }));
    expect(screen.getByLabelText('Banco')).toHaveProperty('value', 'Banco de Chile');
    expect(screen.getByLabelText('Ejecutivo')).toHaveProperty('value', 'Pía Ruiz');
    expect(screen.queryByTestId('bank-changed')).toBeNull();
  });

  it('shows a rescinded reservation’s bank data as text, whole, with nothing to edit', () => {
    const longName = 'Banco de Crédito e Inversiones Sucursal Providencia Oriente';
    renderCard(
      <BankCard
        flow={flowWith({
          isRescinded: true,
          bankName: longName,
          bankExecutiveEmail: 'pia.ruiz@bancoejemplo.cl',
        })}
        onSave={vi.fn()}
        saving={false}
      />,
    );
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Guardar Banco' })).toBeNull();
    const values = screen.getByTestId('bank-values');
    expect(values.textContent).toContain(longName);
    expect(values.textContent).toContain('pia.ruiz@bancoejemplo.cl');
    // An empty field says so.
    expect(values.textContent).toContain('Teléfono ejecutivo—');
  });
});
