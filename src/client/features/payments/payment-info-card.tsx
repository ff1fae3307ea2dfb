import { Badge, Group, Paper, SimpleGrid, Text, Title } from '@mantine/core';
import { formatPercent, formatRut, formatUF } from '../../../shared/format';
import type { PaymentFlowDetail } from '../../../shared/schemas/payments';
import { ClpText } from '../../components/clp-text';
import { InfoItem } from '../sale-flows';

/** 'Primer pago (50 %)' / 'Segundo pago (50 %)': which share of a two-payment commission this flow pays. */
export function paymentTypeText(flow: Pick<PaymentFlowDetail, 'isSecondPayment' | 'commission'>): string {
  const which = flow.isSecondPayment ? 'Segundo pago' : 'Primer pago';
  return `${which} (${formatPercent(flow.commission.paymentPercentage)})`;
}

/**
 * The payment flow's general information (spec part 2 §2): client, project with stage and apartment,
 * broker, the commission in UF with its percentage, the payment type when paid in two, and 'En
 * Riesgo' with its reason.
 */
export function PaymentInfoCard({ flow }: { flow: PaymentFlowDetail }) {
  const { commission } = flow;
  return (
    <Paper withBorder radius="md" p="md" h="100%">
      <Group justify="space-between" mb="sm" wrap="wrap" gap="xs">
        <Title order={4}>Información General</Title>
        {commission.atRisk ? (
          <Badge color="orange" data-testid="at-risk-badge">
            En Riesgo
          </Badge>
        ) : null}
      </Group>
      <SimpleGrid cols={{ base: 2, md: 3 }} spacing="md" verticalSpacing="sm">
        <InfoItem label="Cliente">
          <Text size="sm" fw={500}>
            {flow.client.firstName} {flow.client.lastName}
          </Text>
          <Text size="xs" c="dimmed">
            {formatRut(flow.client.rut)}
          </Text>
        </InfoItem>
        <InfoItem label="Proyecto">
          <Text size="sm">{flow.project.name}</Text>
          <Text size="xs" c="dimmed">
            {flow.project.stage} · Depto. {flow.reservation.apartmentNumber}
          </Text>
        </InfoItem>
        <InfoItem label="Broker">
          <Text size="sm">{flow.broker?.name ?? 'Sin broker'}</Text>
          {flow.broker ? (
            <Text size="xs" c="dimmed">
              {flow.broker.businessName}
            </Text>
          ) : null}
        </InfoItem>
        <InfoItem label="Comisión" testId="commission-amount">
          <Text size="sm" fw={600}>
            {formatUF(commission.commissionAmount)}
          </Text>
          <Text size="xs" c="dimmed">
            {formatPercent(commission.commissionPercentage)} del precio base
          </Text>
        </InfoItem>
        <InfoItem label={flow.isSecondPayment ? 'Monto CLP pago 2' : 'Monto CLP'} testId="payment-clp">
          <ClpText figure={commission.pesos} />
        </InfoItem>
        {commission.numberOfPayments === 2 ? (
          <InfoItem label="Tipo de Pago" testId="payment-type">
            <Text size="sm">{paymentTypeText(flow)}</Text>
            <Text size="xs" c="dimmed">
              {formatUF(commission.paymentAmount)}
            </Text>
          </InfoItem>
        ) : null}
        {commission.atRisk ? (
          <InfoItem label="Motivo del Riesgo" testId="at-risk-reason">
            <Text size="sm">{commission.atRiskReason}</Text>
          </InfoItem>
        ) : null}
      </SimpleGrid>
    </Paper>
  );
}
