import { Badge, Group, Stack, Text } from '@mantine/core';
import { flowStatusBadges } from '../../../shared/domain/workflow/statuses';
import { formatPercent, formatUF } from '../../../shared/format';
import type { PaymentListRow, PaymentStanding } from '../../../shared/schemas/payments';

/**
 * How a payment stands, in the list's words and colours: the flow statuses' own (Completado, En
 * Proceso, Pendiente; Cancelado once a rescission cancelled its flow).
 */
export function PaymentBadge({ label, standing }: { label: string; standing: PaymentStanding }) {
  const badge = flowStatusBadges[standing];
  return (
    <Badge color={badge.color} variant="light" miw="max-content" aria-label={`${label}: ${badge.label}`}>
      {badge.label}
    </Badge>
  );
}

/** '50 % / 50 %': how a two-payment commission is split. */
export function splitText(firstPaymentPercentage: number): string {
  return `${formatPercent(firstPaymentPercentage)} / ${formatPercent(100 - firstPaymentPercentage)}`;
}

/**
 * The list's commission: gross and net, the split when paid in two, 'En Riesgo' when flagged; 'Sin
 * comisión' when none is configured.
 */
export function CommissionCell({ commission }: { commission: PaymentListRow['commission'] }) {
  if (!commission) {
    return (
      <Text size="sm" c="dimmed">
        Sin comisión
      </Text>
    );
  }
  return (
    <Stack gap={0} align="flex-start">
      <Group gap={6} wrap="nowrap">
        <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
          {formatUF(commission.commissionAmount)}
        </Text>
        {commission.atRisk ? (
          <Badge color="orange" size="sm" miw="max-content">
            En Riesgo
          </Badge>
        ) : null}
      </Group>
      <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
        Neta {formatUF(commission.netCommission)}
      </Text>
      {commission.numberOfPayments === 2 ? (
        <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          2 pagos: {splitText(commission.firstPaymentPercentage)}
        </Text>
      ) : null}
    </Stack>
  );
}
