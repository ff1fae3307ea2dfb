import { ConfirmDialog } from '../../components/confirm-dialog';

/**
 * Asks before 'Proceder con Pago' (issue 28 §5): what starting does and that it cannot be undone.
 * Always asked: no command of the workflow engine takes a started flow back to waiting, for anyone.
 * The dialog stays open while the flow starts and shows a refusal inside; 'Cancelar' starts nothing.
 */
export function StartDialog({
  opened,
  flowTitle,
  loading,
  error,
  onConfirm,
  onClose,
}: {
  opened: boolean;
  /** 'Flujo de Pago N° 1234' / 'Segundo Pago N° 1234'. */
  flowTitle: string;
  loading: boolean;
  error: unknown;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <ConfirmDialog
      opened={opened}
      title="¿Proceder con Pago?"
      confirmColor="blue"
      pendingLabel="Iniciando..."
      loading={loading}
      error={error}
      onConfirm={onConfirm}
      onClose={onClose}
    >
      Se iniciará el <strong>{flowTitle}</strong>: sus primeras tareas quedan habilitadas y empiezan a correr
      sus plazos. <strong>Después no se podrá deshacer</strong>: el flujo no vuelve a quedar en espera.
    </ConfirmDialog>
  );
}
