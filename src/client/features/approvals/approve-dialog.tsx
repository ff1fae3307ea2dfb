import { ConfirmDialog } from '../../components/confirm-dialog';

/** What is being approved: one approval (the detail), or several ('Aprobar Seleccionados'). */
export type ApprovalSubject =
  | { kind: 'one'; taskName: string; reservationNumber: string }
  | { kind: 'several'; count: number };

/**
 * Asks before 'Aprobar' when the server says the user could not take the approval back (a
 * non-administrator: the task's `commands.irreversible`, or the list's `isApprovalFinal`; issue 28
 * §5): what will happen and that they cannot undo it. 'Cancelar' approves nothing. The dialog stays
 * open while the approval runs and shows a refusal inside.
 */
export function ApproveDialog({
  subject,
  loading,
  error,
  onConfirm,
  onClose,
}: {
  /** Null while nothing is asked. */
  subject: ApprovalSubject | null;
  loading: boolean;
  error: unknown;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const several = subject?.kind === 'several' && subject.count > 1;
  return (
    <ConfirmDialog
      opened={subject !== null}
      title={several ? `¿Aprobar ${subject.count} liquidaciones?` : '¿Aprobar esta liquidación?'}
      confirmColor="green"
      pendingLabel="Aprobando..."
      loading={loading}
      error={error}
      onConfirm={onConfirm}
      onClose={onClose}
    >
      {subject?.kind === 'one' ? (
        <>
          Se aprobará <strong>{subject.taskName}</strong> de la reserva N°&nbsp;{subject.reservationNumber} y
          el flujo de pago seguirá con su siguiente tarea.{' '}
          <strong>Después usted no podrá deshacer esta aprobación.</strong>
        </>
      ) : several ? (
        <>
          Se aprobarán las {subject.count} liquidaciones seleccionadas y cada flujo de pago seguirá con su
          siguiente tarea. <strong>Después usted no podrá deshacer estas aprobaciones.</strong>
        </>
      ) : (
        <>
          Se aprobará la liquidación seleccionada y su flujo de pago seguirá con su siguiente tarea.{' '}
          <strong>Después usted no podrá deshacer esta aprobación.</strong>
        </>
      )}
    </ConfirmDialog>
  );
}
