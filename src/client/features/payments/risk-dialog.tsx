import { Checkbox, Text, Textarea } from '@mantine/core';
import type { UseMutationResult } from '@tanstack/react-query';
import { useState } from 'react';
import { type RiskBody, riskBody } from '../../../shared/schemas/payments';
import { FormDialog } from '../../components/form-dialog';
import { schemaErrors } from '../../lib/forms';
import { notifySaved } from '../../lib/notify';
import { useSetRisk } from './api';

/** Why the at-risk form cannot be sent as it is (the reason, when at risk), or null. */
export function riskReasonProblem(body: RiskBody): string | null {
  return schemaErrors(riskBody, body).reason ?? null;
}

/** What the at-risk change answers. */
type RiskSaved = { atRisk: boolean; atRiskReason: string | null; version: number };

/**
 * 'Marcar En Riesgo' / 'Editar Estado Riesgo' of a payment flow (spec part 2 §4, §5): the flag with
 * its reason, required while checked ('Motivo del Riesgo *') and cleared when unchecked.
 */
export function RiskDialog({
  opened,
  flowId,
  commission,
  onClose,
}: {
  opened: boolean;
  flowId: string;
  commission: RiskSaved;
  onClose: () => void;
}) {
  const save = useSetRisk(flowId);
  return (
    <RiskFormDialog
      opened={opened}
      title={commission.atRisk ? 'Editar Estado Riesgo' : 'Marcar En Riesgo'}
      commission={commission}
      save={save}
      onClose={onClose}
    />
  );
}

/**
 * The at-risk form, saved by the given mutation: the payment flow's (above) or the consolidated
 * view's ('Marcar En Riesgo' / 'Editar Riesgo').
 */
export function RiskFormDialog({
  opened,
  title,
  commission,
  save,
  onClose,
}: {
  opened: boolean;
  title: string;
  commission: RiskSaved;
  save: UseMutationResult<RiskSaved, Error, RiskBody>;
  onClose: () => void;
}) {
  // Opened to mark or to edit a flag that is on: either way it starts checked.
  const [atRisk, setAtRisk] = useState(true);
  const [reason, setReason] = useState(commission.atRiskReason ?? '');
  const [problem, setProblem] = useState<string | null>(null);

  const submit = () => {
    const body: RiskBody = { atRisk, reason: atRisk ? reason : null, version: commission.version };
    const why = riskReasonProblem(body);
    setProblem(why);
    if (why) return;
    save.mutate(body, {
      onSuccess: (saved) => {
        notifySaved(saved.atRisk ? 'Comisión marcada En Riesgo' : 'La comisión ya no está en riesgo');
        onClose();
      },
    });
  };

  return (
    <FormDialog
      opened={opened}
      title={title}
      saving={save.isPending}
      error={save.error}
      onSubmit={submit}
      onClose={onClose}
    >
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
    </FormDialog>
  );
}
