import { Anchor, Badge, Group, Paper, Text } from '@mantine/core';
import { Link } from 'react-router';
import { formatPlanUf } from '../../../shared/buyer-plan';
import { DEED_BALANCE_TASK, PIE_LETTER_TASK } from '../../../shared/domain/workflow/names';
import { paths } from '../../app/paths';
import { useBuyerAccount } from './api';

/**
 * On the sale flow's page (decision 0074): what 'PENDIENTE CARTA PIE' waits for and what 'SALDOS
 * ESCRITURA PENDIENTES' asks, from the buyer's account. Nothing when the reservation has no plan.
 */
export function AccountBalanceCard({ reservationId }: { reservationId: string }) {
  const account = useBuyerAccount(reservationId);
  const plan = account.data?.plan;
  if (!plan) return null;
  return (
    <Paper withBorder p="sm" radius="md" component="section" aria-label="Saldos del comprador">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Group gap="xs">
          <Text size="sm" fw={500}>
            {PIE_LETTER_TASK}:
          </Text>
          {plan.isPiePaid ? (
            <Badge color="green">Pie pagado</Badge>
          ) : plan.pieWaiver ? (
            <Badge color="blue">Liberada por un administrador</Badge>
          ) : (
            <Badge color="orange">Saldo del pie {formatPlanUf(plan.balance)}</Badge>
          )}
        </Group>
        <Text size="sm">
          {DEED_BALANCE_TASK}: <strong>{formatPlanUf(plan.deedBalance)}</strong>{' '}
          <Text span size="xs" c="dimmed">
            (saldo del comprador, crédito y subsidio)
          </Text>
        </Text>
        <Anchor component={Link} to={paths.editReservation(reservationId)} size="sm">
          Ver cuenta del comprador
        </Anchor>
      </Group>
    </Paper>
  );
}
