import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { type ApprovalSubject, ApproveDialog } from './approve-dialog';

function renderDialog(subject: ApprovalSubject | null, loading = false) {
  const onConfirm = vi.fn();
  const onClose = vi.fn();
  renderWithProviders(
    <ApproveDialog
      subject={subject}
      loading={loading}
      error={null}
      onConfirm={onConfirm}
      onClose={onClose}
    />,
  );
  return { onConfirm, onClose };
}

describe("the confirmation of 'Aprobar'", () => {
  it('names the approval and its reservation, and says it cannot be undone', () => {
    const { onConfirm, onClose } = renderDialog({
      kind: 'one',
      taskName: 'VB Jefe Inversiones',
      reservationNumber: '4821',
    });
    const dialog = screen.getByRole('dialog', { name: '¿Aprobar esta liquidación?' });
    expect(dialog.textContent).toContain('Se aprobará VB Jefe Inversiones de la reserva N°\u00a04821');
    expect(dialog.textContent).toContain('Después usted no podrá deshacer esta aprobación.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(onConfirm).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirmar' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it("counts the approvals of 'Aprobar Seleccionados', one or several", () => {
    renderDialog({ kind: 'several', count: 3 });
    const dialog = screen.getByRole('dialog', { name: '¿Aprobar 3 liquidaciones?' });
    expect(dialog.textContent).toContain('Se aprobarán las 3 liquidaciones seleccionadas');
    expect(dialog.textContent).toContain('Después usted no podrá deshacer estas aprobaciones.');
  });

  it('speaks of one when one is selected, and holds while approving', () => {
    const { onClose } = renderDialog({ kind: 'several', count: 1 }, true);
    const dialog = screen.getByRole('dialog', { name: '¿Aprobar esta liquidación?' });
    expect(dialog.textContent).toContain('Se aprobará la liquidación seleccionada');
    expect((within(dialog).getByRole('button', { name: 'Aprobando...' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    expect(onClose).not.toHaveBeenCalled();
  });

  it('is closed while nothing is asked', () => {
    renderDialog(null);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
