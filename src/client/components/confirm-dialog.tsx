import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { ErrorAlert } from './error-alert';

export interface ConfirmDialogProps {
  opened: boolean;
  title: string;
  /** The question, e.g. '¿Eliminar al cliente Juan Pérez?'. */
  children: ReactNode;
  confirmLabel?: string;
  /** Shown on the confirm button while `loading` (e.g. 'Eliminando...'). */
  pendingLabel?: string;
  cancelLabel?: string;
  confirmColor?: string;
  loading?: boolean;
  /** A refusal from the server, shown inside the dialog. */
  error?: unknown;
  onConfirm: () => void;
  onClose: () => void;
}

/**
 * A plain confirmation dialog (decision 0005: no modal manager). Closes on Escape and on Cancelar,
 * never while the action runs.
 *
 *   <ConfirmDialog opened={!!target} title="Eliminar cliente" confirmLabel="Eliminar"
 *     pendingLabel="Eliminando..." loading={remove.isPending} error={remove.error}
 *     onConfirm={() => remove.mutate(target.id)} onClose={() => setTarget(null)}>
 *     ¿Eliminar a {name}?
 *   </ConfirmDialog>
 */
export function ConfirmDialog({
  opened,
  title,
  children,
  confirmLabel = 'Confirmar',
  pendingLabel,
  cancelLabel = 'Cancelar',
  confirmColor = 'red',
  loading = false,
  error,
  onConfirm,
  onClose,
}: ConfirmDialogProps) {
  return (
    <Modal
      opened={opened}
      onClose={() => {
        if (!loading) onClose();
      }}
      title={<Text fw={700}>{title}</Text>}
      size="sm"
      centered
      closeButtonProps={{ 'aria-label': 'Cerrar' }}
    >
      <Stack>
        <ErrorAlert error={error} />
        <Text size="sm">{children}</Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={loading}>
            {cancelLabel}
          </Button>
          <Button color={confirmColor} onClick={onConfirm} disabled={loading} data-autofocus>
            {loading && pendingLabel ? pendingLabel : confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
