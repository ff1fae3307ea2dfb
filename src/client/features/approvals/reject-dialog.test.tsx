import { MantineProvider } from '@mantine/core';
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { RejectDialog } from './reject-dialog';

function renderDialog() {
  const onConfirm = vi.fn();
  const onClose = vi.fn();
  render(
    <MantineProvider>
      <RejectDialog
        opened
        taskName="VB Jefe Inversiones"
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

  it("'Cancelar' closes without sending", () => {
    const { onConfirm, onClose } = renderDialog();
    fireEvent.click(screen.getByRole('button', { name: 'Cancelar' }));
    expect(onClose).toHaveBeenCalled();
    expect(onConfirm).not.toHaveBeenCalled();
  });
});
