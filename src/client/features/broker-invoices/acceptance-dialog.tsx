import { Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { brokerInvoiceAcceptanceBody } from '../../../shared/schemas/broker-invoices';
import { FormDialog } from '../../components/form-dialog';
import { schemaErrors } from '../../lib/forms';
import { notifySaved } from '../../lib/notify';
import { useAcceptMismatch } from './api';

/** An administrator accepts the invoice's difference with the payment, saying why (kept in Historial). */
export function AcceptanceDialog({
  flowId,
  taskRowId,
  version,
  onClose,
}: {
  flowId: string;
  taskRowId: string;
  version: number;
  onClose: () => void;
}) {
  const accept = useAcceptMismatch(flowId, taskRowId);
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const submit = () => {
    const body = { reason, version };
    const why = schemaErrors(brokerInvoiceAcceptanceBody, body).reason ?? null;
    setProblem(why);
    if (why) return;
    accept.mutate(body, {
      onSuccess: () => {
        notifySaved('Diferencia aceptada');
        onClose();
      },
    });
  };
  return (
    <FormDialog
      opened
      title="Aceptar diferencia de la factura"
      submitLabel="Aceptar diferencia"
      saving={accept.isPending}
      error={accept.error}
      submitDisabled={reason.trim() === ''}
      onSubmit={submit}
      onClose={onClose}
    >
      <Text size="sm">
        La tarea se podrá completar con esta factura aunque no cuadre con el pago. El motivo queda en el
        Historial del flujo.
      </Text>
      <Textarea
        label="Motivo"
        required
        autosize
        minRows={3}
        maxRows={8}
        maxLength={500}
        value={reason}
        error={problem}
        data-autofocus
        onChange={(event) => {
          setReason(event.currentTarget.value);
          if (problem && event.currentTarget.value.trim()) setProblem(null);
        }}
      />
    </FormDialog>
  );
}
