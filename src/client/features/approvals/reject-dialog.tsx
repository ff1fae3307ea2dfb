import { Alert, Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useState } from 'react';
import { ErrorAlert } from '../../components/error-alert';

/**
 * 'Rechazar Aprobación' (spec part 2 §2, §5): the reason, required; 'Confirmar Rechazo' stays disabled
 * until the trimmed reason is not empty. The server writes 'RECHAZO: {reason}' on the task. When the
 * user could not take the rejection back (`isFinal`: the task's `commands.irreversible` holds
 * 'blocked'), the popup says only an administrator can reopen the task.
 */
export function RejectDialog({
  opened,
  taskName,
  isFinal,
  loading,
  error,
  onConfirm,
  onClose,
}: {
  opened: boolean;
  taskName: string;
  isFinal: boolean;
  loading: boolean;
  error: unknown;
  onConfirm: (reason: string) => void;
  onClose: () => void;
}) {
  const [reason, setReason] = useState('');
  const trimmed = reason.trim();
  const close = () => {
    if (loading) return;
    setReason('');
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title="Rechazar Aprobación" centered>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (trimmed && !loading) onConfirm(trimmed);
        }}
      >
        <Stack gap="md">
          <Text size="sm">
            La tarea «{taskName}» quedará bloqueada y el motivo se registrará como comentario en el flujo de
            pago.
          </Text>
          {isFinal ? (
            <Alert color="orange" icon={<IconLock size={18} />} data-testid="reject-final">
              Después no podrá deshacerlo: solo un administrador puede reabrir una tarea rechazada.
            </Alert>
          ) : null}
          <ErrorAlert error={error} />
          <Textarea
            label="Motivo del rechazo"
            required
            autosize
            minRows={3}
            maxLength={1000}
            value={reason}
            onChange={(event) => setReason(event.currentTarget.value)}
            data-autofocus
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} disabled={loading}>
              Cancelar
            </Button>
            <Button type="submit" color="red" loading={loading} disabled={!trimmed}>
              Confirmar Rechazo
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
