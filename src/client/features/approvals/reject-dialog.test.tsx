import { MantineProvider } from '@mantine/core';
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { RejectDialog } from './reject-dialog';

function renderDialog(isFinal = false) {
  const onConfirm = vi.fn();
  const onClose = vi.fn();
  render(
    <MantineProvider>
      <RejectDialog
        opened
        taskName="VB Jefe Inversiones"
        isFinal={isFinal}
        loading={false}
        error={null}
        onConfirm={onConfirm}
        onClose={onClose}
      />
    </MantineProvider>,
  );
  return { onConfirm, onClose };
}

describe("the 'Rechazar Aprobación' popup", () => {
  it("keeps 'Confirmar Rechazo' disabled until the trimmed reason is not empty, then sends it trimmed", () => {
    const { onConfirm } = renderDialog();
    expect(screen.getByText('Rechazar Aprobación')).toBeTruthy();
    const confirm = screen.getByRole('button', { name: 'Confirmar Rechazo' }) as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
    const reason = screen.getByLabelText(/Motivo del rechazo/);
    fireEvent.change(reason, { target: { value: '   ' } });
    expect(confirm.disabled).toBe(true);
    fireEvent.submit(confirm.closest('form')!);
    expect(onConfirm).not.toHaveBeenCalled();
    fireEvent.change(reason, { target: { value: '  Falta la factura  ' } });
    expect(confirm.disabled).toBe(false);
    fireEvent.click(confirm);
    expect(onConfirm).toHaveBeenCalledWith('Falta la factura');
  });

  it('says a rejection is final when the user could not reopen the task, and only then', () => {
    renderDialog(true);
    expect(screen.getByTestId('reject-final').textContent).toMatch(/solo un administrador puede reabrir/);
  });

  it('says nothing of the kind to who could reopen it (an administrator)', () => {
    renderDialog(false);
    expect(screen.queryByTestId('reject-final')).toBeNull();
  });

  it("'Cancelar' closes without sending", () => {
    const { onConfirm, onClose } = renderDialog();
    fireEvent.click(screen.getByRole('button', { name: 'Cancelar' }));
    expect(onClose).toHaveBeenCalled();
    expect(onConfirm).not.toHaveBeenCalled();
  });
});
