import { Button, Checkbox, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { type RiskBody, riskBody } from '../../../shared/schemas/payments';
import { ErrorAlert } from '../../components/error-alert';
import { schemaErrors } from '../../lib/forms';

/** Why the at-risk form cannot be sent as it is (the reason, when at risk), or null. */
export function riskReasonProblem(body: RiskBody): string | null {
  return schemaErrors(riskBody, body).reason ?? null;
}

/**
 * 'Marcar En Riesgo' / 'Editar Estado Riesgo' (spec part 2 §4, §5): the flag with its reason,
 * required while checked ('Motivo del Riesgo *') and cleared when unchecked.
 */
export function RiskDialog({
  opened,
  commission,
  saving,
  error,
  onSave,
  onClose,
}: {
  opened: boolean;
  commission: { atRisk: boolean; atRiskReason: string | null; version: number };
  saving: boolean;
  error: unknown;
  onSave: (body: RiskBody) => void;
  onClose: () => void;
}) {
  // Opened to mark or to edit a flag that is on: either way it starts checked.
  const [atRisk, setAtRisk] = useState(true);
  const [reason, setReason] = useState(commission.atRiskReason ?? '');
  const [problem, setProblem] = useState<string | null>(null);

  return (
    <Modal
      opened={opened}
      onClose={() => !saving && onClose()}
      title={<Text fw={700}>{commission.atRisk ? 'Editar Estado Riesgo' : 'Marcar En Riesgo'}</Text>}
      centered
      closeButtonProps={{ 'aria-label': 'Cerrar' }}
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const body: RiskBody = { atRisk, reason: atRisk ? reason : null, version: commission.version };
          const why = riskReasonProblem(body);
          setProblem(why);
          if (!why) onSave(body);
        }}
      >
        <Stack gap="sm">
          <ErrorAlert error={error} />
          <Checkbox
            label="Comisión en riesgo"
            checked={atRisk}
            onChange={(event) => {
              const checked = event.currentTarget.checked;
              setAtRisk(checked);
              if (!checked) {
                setReason('');
                setProblem(null);
              }
            }}
          />
          {atRisk ? (
            <Textarea
              label="Motivo del Riesgo"
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
          ) : (
            <Text size="sm" c="dimmed">
              Al guardar sin marcar, la comisión deja de estar en riesgo y se borra el motivo.
            </Text>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} disabled={saving}>
              Cancelar
            </Button>
            <Button type="submit" loading={saving}>
              Guardar
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
