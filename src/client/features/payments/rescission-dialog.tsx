import {
  Alert,
  Button,
  Checkbox,
  Group,
  Loader,
  Modal,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState } from 'react';
import { formatUF } from '../../../shared/format';
import { type RescissionBody, rescissionBody } from '../../../shared/schemas/payments';
import { ErrorAlert } from '../../components/error-alert';
import { schemaErrors } from '../../lib/forms';
import { notifySaved } from '../../lib/notify';
import { useRescind, useRescissionPreview } from './api';

/**
 * What keeps a step of the wizard from going on: step 1 needs the reason, step 2 also the confirmation
 * typed exactly (spec part 2 §5); the messages are the contract's.
 */
export function rescissionProblems(
  body: RescissionBody,
  step: 1 | 2,
): { reason?: string; confirmation?: string } {
  const errors = schemaErrors(rescissionBody, body);
  return {
    ...(errors.reason ? { reason: errors.reason } : {}),
    ...(step === 2 && errors.confirmation ? { confirmation: errors.confirmation } : {}),
  };
}

/** What the rescission does to the reservation's flows, in words. */
function openFlowsText(openFlows: number | undefined): string {
  if (openFlows === undefined)
    return 'se cancelarán sus flujos abiertos y sus tareas saldrán de las listas de pendientes.';
  if (openFlows === 0) return 'no tiene flujos abiertos que cancelar.';
  if (openFlows === 1)
    return 'se cancelará su flujo abierto y sus tareas saldrán de las listas de pendientes.';
  return `se cancelarán sus ${openFlows} flujos abiertos y sus tareas saldrán de las listas de pendientes.`;
}

/**
 * 'Resciliar Reserva' (administrators; spec part 2 §2, §4, §5): step 1 the reason; step 2 the
 * penalty (offered only when the commission has a payment dated, with its amount) and the
 * confirmation word, under a warning that it cannot be undone. On success the screens that show the
 * reservation read it again.
 */
export function RescissionDialog({
  opened,
  reservationId,
  reservationNumber,
  onClose,
}: {
  opened: boolean;
  reservationId: string;
  reservationNumber: string;
  onClose: () => void;
}) {
  const preview = useRescissionPreview(reservationId, opened);
  const rescind = useRescind(reservationId);
  const [step, setStep] = useState<1 | 2>(1);
  const [reason, setReason] = useState('');
  const [applyPenalty, setApplyPenalty] = useState(false);
  const [confirmation, setConfirmation] = useState('');
  const [problems, setProblems] = useState<{ reason?: string; confirmation?: string }>({});
  const body: RescissionBody = { reason, confirmation, applyPenalty };
  const close = () => {
    if (!rescind.isPending) onClose();
  };
  const details = preview.data;
  const penaltyOffered = details?.isCommissionPaid === true && details.penaltyAmount !== null;

  const next = () => {
    const found = rescissionProblems(body, 1);
    setProblems(found);
    if (!found.reason) setStep(2);
  };
  const submit = () => {
    const found = rescissionProblems(body, 2);
    setProblems(found);
    if (found.reason) {
      setStep(1);
      return;
    }
    if (found.confirmation) return;
    rescind.mutate(
      { ...body, applyPenalty: penaltyOffered && applyPenalty },
      {
        onSuccess: () => {
          notifySaved(`Reserva N° ${reservationNumber} resciliada`);
          onClose();
        },
      },
    );
  };

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={<Text fw={700}>Resciliar Reserva N°&nbsp;{reservationNumber}</Text>}
      size="lg"
      centered
      closeOnClickOutside={false}
      closeButtonProps={{ 'aria-label': 'Cerrar' }}
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (step === 1) next();
          else submit();
        }}
      >
        <Stack gap="sm">
          <Text size="sm" c="dimmed" data-testid="rescission-step">
            Paso {step} de 2 · {step === 1 ? 'Motivo' : 'Confirmación'}
          </Text>
          <ErrorAlert error={preview.error ?? rescind.error} />
          {details?.isRescinded ? <ErrorAlert error="La reserva ya fue resciliada" /> : null}
          {step === 1 ? (
            <Textarea
              label="Motivo de la resciliación"
              required
              autosize
              minRows={3}
              maxRows={8}
              maxLength={1000}
              value={reason}
              error={problems.reason}
              data-autofocus
              onChange={(event) => {
                setReason(event.currentTarget.value);
                if (problems.reason && event.currentTarget.value.trim()) setProblems({});
              }}
            />
          ) : (
            <>
              <Alert color="red" icon={<IconAlertTriangle size={18} />} title="Esta acción es irreversible">
                <Text size="sm">
                  La reserva quedará resciliada y su comisión dejará de estar en riesgo;{' '}
                  {openFlowsText(details?.openFlows)}
                </Text>
              </Alert>
              <Text size="sm">
                <strong>Motivo:</strong> {reason.trim()}
              </Text>
              {preview.isPending ? (
                <Group gap="xs">
                  <Loader size="xs" />
                  <Text size="sm" c="dimmed">
                    Revisando la comisión...
                  </Text>
                </Group>
              ) : penaltyOffered ? (
                <Checkbox
                  checked={applyPenalty}
                  onChange={(event) => setApplyPenalty(event.currentTarget.checked)}
                  label={`Aplicar multa por comisión pagada (${formatUF(details.penaltyAmount)})`}
                  description="La comisión ya tiene un pago registrado: la multa es lo pagado al broker."
                />
              ) : null}
              <TextInput
                label="Para confirmar, escriba CONFIRMAR o CONFIRMACIÓN"
                required
                autoComplete="off"
                value={confirmation}
                error={problems.confirmation}
                data-autofocus
                onChange={(event) => {
                  setConfirmation(event.currentTarget.value);
                  if (problems.confirmation) setProblems({});
                }}
              />
            </>
          )}
          <Group justify="space-between" mt="xs">
            {step === 2 ? (
              <Button variant="default" onClick={() => setStep(1)} disabled={rescind.isPending}>
                Atrás
              </Button>
            ) : (
              <span />
            )}
            <Group gap="sm">
              <Button variant="default" onClick={close} disabled={rescind.isPending}>
                Cancelar
              </Button>
              {step === 1 ? (
                <Button type="submit">Siguiente</Button>
              ) : (
                <Button type="submit" color="red" loading={rescind.isPending} disabled={details?.isRescinded}>
                  Resciliar Reserva
                </Button>
              )}
            </Group>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
