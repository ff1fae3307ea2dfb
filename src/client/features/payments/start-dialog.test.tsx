import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { errorCatalog } from '../../../shared/errors';
import { ApiError } from '../../lib/api';
import { renderWithProviders } from '../../test/render';
import { StartDialog } from './start-dialog';

function renderDialog(extra: { loading?: boolean; error?: unknown } = {}) {
  const onConfirm = vi.fn();
  const onClose = vi.fn();
  renderWithProviders(
    <StartDialog
      opened
      flowTitle="Flujo de Pago N° 4821"
      loading={extra.loading ?? false}
      error={extra.error ?? null}
      onConfirm={onConfirm}
      onClose={onClose}
    />,
  );
  return { onConfirm, onClose, dialog: screen.getByRole('dialog', { name: '¿Proceder con Pago?' }) };
}

describe("the confirmation of 'Proceder con Pago'", () => {
  it('says what starting does and that it cannot be undone; Confirmar starts, Cancelar does not', () => {
    const { onConfirm, onClose, dialog } = renderDialog();
    expect(dialog.textContent).toContain('Se iniciará el Flujo de Pago N° 4821');
    expect(dialog.textContent).toContain('Después no se podrá deshacer');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(onConfirm).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirmar' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it('shows a refusal inside, and cannot be closed while the flow starts', () => {
    const refusal = new ApiError(409, 'FLOW_ALREADY_STARTED', errorCatalog.FLOW_ALREADY_STARTED.message);
    const { onClose, dialog } = renderDialog({ loading: true, error: refusal });
    expect(within(dialog).getByRole('alert').textContent).toContain(
      errorCatalog.FLOW_ALREADY_STARTED.message,
    );
    expect((within(dialog).getByRole('button', { name: 'Iniciando...' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    expect(onClose).not.toHaveBeenCalled();
  });
});
