import {
  Anchor,
  Badge,
  Box,
  Button,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  ThemeIcon,
} from '@mantine/core';
import {
  IconArrowDownRight,
  IconArrowUpRight,
  IconBuildingSkyscraper,
  IconCalendarStats,
  IconCash,
  IconClipboardList,
  IconHomeStats,
  IconMinus,
  IconPlus,
  IconRocket,
  IconTrophy,
  IconUserDollar,
  IconUsers,
} from '@tabler/icons-react';
import { type ReactNode, useDeferredValue } from 'react';
import { Link, useNavigate } from 'react-router';
import { FIGURE_NOTES } from '../../../shared/domain/figures';
import { formatDate, formatDecimal, formatInteger, formatUF } from '../../../shared/format';
import { can } from '../../../shared/permissions';
import type { DashboardData, RecentPayment } from '../../../shared/schemas/dashboard';
import { paths } from '../../app/paths';
import { PageLoader } from '../../app/shell/app-layout';
import { ErrorAlert } from '../../components/error-alert';
import { PageHeader } from '../../components/page-header';
import { useCurrentUser } from '../../lib/session';
import { BackupWarning } from '../backups';
import { useDashboard } from './api';
import { EmptyNote, LabelledBar, MonthlyBars, Panel } from './charts';

/** The summary screen shown after login (spec part 1 §2 "Dashboard"; decision 0011). */
export default function DashboardPage() {
  const { data: loaded, error, isPending } = useDashboard();
  // The figures render in a transition that yields to the browser between components, rather than
  // in one long task when the answer arrives (Lighthouse's Total Blocking Time, issue 10 item 12).
  const data = useDeferredValue(loaded);
  const user = useCurrentUser();
  return (
    <>
      <PageHeader
        title="Dashboard"
        description="Resumen de reservas, clientes, brokers y pagos de comisiones"
      />
      {/* A load error stays at the top, over the last figures that did load. */}
      <ErrorAlert error={error} title="No se pudo cargar el dashboard" />
      <BackupWarning />
      {data && data.totals.projects === 0 && can(user, 'projects.manage') ? <FirstSteps /> : null}
      {isPending || (loaded && !data) ? <PageLoader /> : data ? <DashboardContent data={data} /> : null}
    </>
  );
}

/** A fresh install, seen by an administrator: where to start (an agency, then a project). */
export function FirstSteps() {
  return (
    <Paper withBorder radius="md" p="md" mb="md" component="section" aria-label="Primeros pasos">
      <Group gap="md" align="flex-start" wrap="nowrap">
        <ThemeIcon variant="light" color="blue" size={42} radius="md" visibleFrom="xs">
          <IconRocket size={22} />
        </ThemeIcon>
        <Stack gap="xs">
          <Text fw={700}>Primeros pasos</Text>
          <Text size="sm">
            Aún no hay proyectos registrados. Para registrar reservas, cree primero una inmobiliaria y luego
            un proyecto en Configuración.
          </Text>
          <Group gap="sm">
            <Button
              component={Link}
              to={paths.newSettingsRecord('inmobiliarias')}
              variant="light"
              leftSection={<IconPlus size={16} />}
            >
              Crear inmobiliaria
            </Button>
            <Button
              component={Link}
              to={paths.newSettingsRecord('proyectos')}
              variant="light"
              leftSection={<IconPlus size={16} />}
            >
              Crear proyecto
            </Button>
          </Group>
        </Stack>
      </Group>
    </Paper>
  );
}

export function DashboardContent({ data }: { data: DashboardData }) {
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, xs: 2, lg: 4 }} spacing="md">
        <StatCard
          label="Total Reservas"
          note={FIGURE_NOTES.rescinded}
          value={data.totals.reservations}
          icon={<IconClipboardList size={22} />}
          color="blue"
          footer={<MonthChange change={data.monthlyStats.reservationsChange} />}
        />
        <StatCard
          label="Total Clientes"
          value={data.totals.clients}
          icon={<IconUsers size={22} />}
          color="teal"
          footer="activos en el sistema"
        />
        <StatCard
          label="Total Proyectos"
          value={data.totals.projects}
          icon={<IconBuildingSkyscraper size={22} />}
          color="violet"
          footer="en comercialización"
        />
        <StatCard
          label="Total Brokers"
          value={data.totals.brokers}
          icon={<IconUserDollar size={22} />}
          color="orange"
          footer="registrados"
        />
      </SimpleGrid>

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Panel
          title="Reservas por mes"
          note={FIGURE_NOTES.rescinded}
          icon={<IconCalendarStats size={20} />}
          testId="monthly-reservations"
        >
          <MonthlyBars
            color="blue"
            unit="reservas"
            months={data.monthlyReservations.map((m) => ({
              month: m.month,
              value: m.count,
              label: formatInteger(m.count),
            }))}
          />
          {data.monthlyReservations.every((m) => m.count === 0) ? (
            <EmptyNote>Sin reservas en los últimos 6 meses</EmptyNote>
          ) : null}
        </Panel>
        <Panel
          title="Comisiones por mes (UF)"
          note={FIGURE_NOTES.rescinded}
          icon={<IconCash size={20} />}
          testId="monthly-commissions"
        >
          <MonthlyBars
            color="teal"
            unit="UF"
            months={data.monthlyCommissions.map((m) => ({
              month: m.month,
              value: Number(m.amount),
              label: formatDecimal(m.amount),
            }))}
          />
          {data.monthlyCommissions.every((m) => Number(m.amount) === 0) ? (
            <EmptyNote>Sin comisiones en los últimos 6 meses</EmptyNote>
          ) : null}
        </Panel>
      </SimpleGrid>

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Panel
          title="Reservas por proyecto"
          note={FIGURE_NOTES.rescinded}
          icon={<IconHomeStats size={20} />}
          testId="project-stats"
        >
          <ProjectBars projects={data.projectStats} />
        </Panel>
        <Panel
          title="Top Brokers"
          note={FIGURE_NOTES.rescinded}
          icon={<IconTrophy size={20} />}
          testId="top-brokers"
        >
          <TopBrokers brokers={data.brokerStats} />
        </Panel>
      </SimpleGrid>

      <Panel title="Últimas reservas" icon={<IconClipboardList size={20} />} testId="recent-reservations">
        <RecentReservations reservations={data.recentReservations} />
      </Panel>
      <Panel title="Últimos pagos" icon={<IconCash size={20} />} testId="recent-payments">
        <RecentPayments payments={data.recentPayments} />
      </Panel>
    </Stack>
  );
}

function StatCard({
  label,
  value,
  icon,
  color,
  footer,
  note,
}: {
  label: string;
  /** What the figure leaves out that a list shows (shared/domain/figures.ts). */
  note?: string;
  value: number;
  icon: ReactNode;
  color: string;
  footer: ReactNode;
}) {
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label={label}>
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Stack gap={2}>
          <Text size="sm" c="dimmed" fw={600}>
            {label}
          </Text>
          <Text fz={30} fw={800} lh={1.15} data-testid="stat-value">
            {formatInteger(value)}
          </Text>
          {note ? (
            <Text size="xs" c="dimmed">
              {note}
            </Text>
          ) : null}
        </Stack>
        <ThemeIcon variant="light" color={color} size={42} radius="md">
          {icon}
        </ThemeIcon>
      </Group>
      <Box mt="xs" fz="sm" c="dimmed">
        {footer}
      </Box>
    </Paper>
  );
}

/** The change versus the previous month: the rounded absolute percent, coloured by its sign. */
export function MonthChange({ change }: { change: number }) {
  const color = change > 0 ? 'teal' : change < 0 ? 'red' : 'dimmed';
  const Icon = change > 0 ? IconArrowUpRight : change < 0 ? IconArrowDownRight : IconMinus;
  const sign = change > 0 ? 'aumento' : change < 0 ? 'disminución' : 'sin cambio';
  return (
    <Group gap={4} wrap="nowrap">
      <Text
        component="span"
        c={color}
        fw={700}
        size="sm"
        data-testid="month-change"
        data-sign={change > 0 ? 'positive' : change < 0 ? 'negative' : 'zero'}
        aria-label={`${sign} de ${Math.abs(change)} %`}
        style={{ display: 'inline-flex', alignItems: 'center', gap: 2 }}
      >
        <Icon size={16} aria-hidden />
        {Math.abs(change)} %
      </Text>
      <Text component="span" size="sm" c="dimmed">
        vs mes anterior
      </Text>
    </Group>
  );
}

function ProjectBars({ projects }: { projects: DashboardData['projectStats'] }) {
  if (projects.length === 0) return <EmptyNote>Aún no hay proyectos registrados</EmptyNote>;
  return (
    <Stack gap="md">
      {projects.map((project) => (
        <LabelledBar
          key={project.id}
          title={
            <Text size="sm" fw={600} truncate>
              {project.name}{' '}
              <Text span size="xs" c="dimmed" fw={400}>
                {project.stage}
              </Text>
            </Text>
          }
          detail={
            project.total === null
              ? `${formatInteger(project.reserved)} reservadas`
              : `${formatInteger(project.reserved)} / ${formatInteger(project.total)}`
          }
          value={project.reserved}
          total={project.total ?? 0}
          caption={
            project.available === null
              ? 'Total de unidades no registrado'
              : `${formatInteger(project.available)} ${project.available === 1 ? 'disponible' : 'disponibles'}`
          }
        />
      ))}
    </Stack>
  );
}

function TopBrokers({ brokers }: { brokers: DashboardData['brokerStats'] }) {
  if (brokers.length === 0) return <EmptyNote>Aún no hay reservas con broker</EmptyNote>;
  const top = Math.max(0, ...brokers.map((broker) => Number(broker.commissions)));
  return (
    <Stack gap="md" component="ol" m={0} p={0} style={{ listStyle: 'none' }}>
      {brokers.map((broker, index) => (
        <Box component="li" key={broker.id}>
          <LabelledBar
            color="orange"
            title={
              <Group gap="xs" wrap="nowrap">
                <Badge size="sm" circle variant="light" color="orange">
                  {index + 1}
                </Badge>
                <Text size="sm" fw={600} truncate>
                  {broker.name}
                </Text>
              </Group>
            }
            detail={formatUF(broker.commissions)}
            value={Number(broker.commissions)}
            total={top}
            caption={`${formatInteger(broker.reservations)} ${broker.reservations === 1 ? 'reserva' : 'reservas'}`}
          />
        </Box>
      ))}
    </Stack>
  );
}

function RecentReservations({ reservations }: { reservations: DashboardData['recentReservations'] }) {
  if (reservations.length === 0) return <EmptyNote>Aún no hay reservas</EmptyNote>;
  const target = (reservation: DashboardData['recentReservations'][number]) =>
    reservation.reservationFlowId
      ? paths.reservationFlow(reservation.reservationFlowId)
      : paths.editReservation(reservation.id);
  return (
    <>
      {/* Phones: one card per reservation instead of a table to scroll sideways. */}
      <Stack hiddenFrom="sm" gap={0}>
        {reservations.map((reservation) => (
          <MobileItem key={reservation.id}>
            <Group justify="space-between" wrap="nowrap" gap="xs">
              <Group gap={6} wrap="nowrap">
                <Anchor component={Link} to={target(reservation)} fw={700} size="sm">
                  {reservation.reservationNumber}
                </Anchor>
                {reservation.isRescinded ? (
                  <Badge color="red" size="xs" variant="light">
                    Resciliada
                  </Badge>
                ) : null}
              </Group>
              <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
                {formatUF(reservation.totalPrice)}
              </Text>
            </Group>
            <Text size="sm">
              {reservation.projectName} {reservation.projectStage} · Depto. {reservation.apartmentNumber}
            </Text>
            <Text size="sm">
              {reservation.clientName} · {formatDate(reservation.reservationDate)}
            </Text>
            <Text size="xs" c="dimmed">
              Vendedor: {reservation.sellerName ?? '—'} · Broker: {reservation.brokerName ?? '—'}
            </Text>
          </MobileItem>
        ))}
      </Stack>
      <Box visibleFrom="sm">
        <Table.ScrollContainer minWidth={880}>
          <Table verticalSpacing="xs" highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>N° Reserva</Table.Th>
                <Table.Th>Proyecto</Table.Th>
                <Table.Th>Depto.</Table.Th>
                <Table.Th>Cliente</Table.Th>
                <Table.Th>Vendedor</Table.Th>
                <Table.Th>Broker</Table.Th>
                <Table.Th ta="right">Precio Total</Table.Th>
                <Table.Th>Fecha</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {reservations.map((reservation) => (
                <Table.Tr key={reservation.id} bg={reservation.isRescinded ? 'red.0' : undefined}>
                  <Table.Td>
                    <Group gap={6} wrap="nowrap">
                      <Anchor component={Link} to={target(reservation)} fw={600} size="sm">
                        {reservation.reservationNumber}
                      </Anchor>
                      {reservation.isRescinded ? (
                        <Badge color="red" size="xs" variant="light">
                          Resciliada
                        </Badge>
                      ) : null}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{reservation.projectName}</Text>
                    <Text size="xs" c="dimmed">
                      {reservation.projectStage}
                    </Text>
                  </Table.Td>
                  <Table.Td>{reservation.apartmentNumber}</Table.Td>
                  <Table.Td>{reservation.clientName}</Table.Td>
                  <Table.Td>{reservation.sellerName ?? '—'}</Table.Td>
                  <Table.Td>{reservation.brokerName ?? '—'}</Table.Td>
                  <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                    {formatUF(reservation.totalPrice)}
                  </Table.Td>
                  <Table.Td>{formatDate(reservation.reservationDate)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Box>
    </>
  );
}

function MobileItem({ children, onClick }: { children: ReactNode; onClick?: () => void }) {
  return (
    <Stack
      gap={2}
      py="sm"
      style={{
        borderBottom: '1px solid var(--mantine-color-default-border)',
        cursor: onClick ? 'pointer' : undefined,
      }}
      onClick={onClick}
    >
      {children}
    </Stack>
  );
}

/** The status badge of a payment (spec part 1 §2): Completado, the current task, or Pendiente. */
export function paymentStatus(payment: Pick<RecentPayment, 'status' | 'currentTaskName'>): {
  label: string;
  color: string;
} {
  switch (payment.status) {
    case 'completed':
      return { label: 'Completado', color: 'green' };
    case 'in_progress':
      return { label: payment.currentTaskName ?? 'En Proceso', color: 'blue' };
    case 'cancelled':
      return { label: 'Cancelado', color: 'red' };
    default:
      return { label: 'Pendiente', color: 'gray' };
  }
}

function RecentPayments({ payments }: { payments: DashboardData['recentPayments'] }) {
  const navigate = useNavigate();
  if (payments.length === 0) return <EmptyNote>Aún no hay pagos de comisiones</EmptyNote>;
  return (
    <>
      <Stack hiddenFrom="sm" gap={0}>
        {payments.map((payment) => {
          const status = paymentStatus(payment);
          const to = paths.paymentFlow(payment.id);
          return (
            <MobileItem key={payment.id} onClick={() => navigate(to)}>
              <Group justify="space-between" wrap="nowrap" gap="xs">
                <Anchor
                  component={Link}
                  to={to}
                  fw={700}
                  size="sm"
                  onClick={(event) => event.stopPropagation()}
                >
                  {payment.brokerName}
                </Anchor>
                <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
                  {formatUF(payment.amount)}
                </Text>
              </Group>
              <Group gap="xs" wrap="nowrap">
                <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                  Reserva {payment.reservationNumber}
                  {payment.isSecondPayment ? ' · Segundo Pago' : ''}
                </Text>
                <Badge color={status.color} variant="light" tt="none" maw={200} title={status.label}>
                  {status.label}
                </Badge>
              </Group>
              <Text size="xs" c="dimmed">
                Días de atraso:{' '}
                <Text
                  span
                  inherit
                  fw={payment.daysOverdue ? 700 : undefined}
                  c={payment.daysOverdue ? 'red' : undefined}
                >
                  {payment.daysOverdue === null ? '—' : formatInteger(payment.daysOverdue)}
                </Text>
                {' · '}
                {payment.assigneeName ?? (payment.currentTaskName ? 'Sin asignar' : '—')}
                {' · '}
                Fecha de pago: {payment.paymentDate ? formatDate(payment.paymentDate) : '—'}
              </Text>
            </MobileItem>
          );
        })}
      </Stack>
      <Box visibleFrom="sm">
        <Table.ScrollContainer minWidth={880}>
          <Table verticalSpacing="xs" highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Broker</Table.Th>
                <Table.Th>N° Reserva</Table.Th>
                <Table.Th>Estado</Table.Th>
                <Table.Th ta="right">Días de atraso</Table.Th>
                <Table.Th>Responsable</Table.Th>
                <Table.Th ta="right">Monto</Table.Th>
                <Table.Th>Fecha de pago</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {payments.map((payment) => {
                const status = paymentStatus(payment);
                const to = paths.paymentFlow(payment.id);
                return (
                  <Table.Tr
                    key={payment.id}
                    onClick={() => navigate(to)}
                    style={{ cursor: 'pointer' }}
                    data-testid="recent-payment"
                  >
                    <Table.Td>
                      <Anchor
                        component={Link}
                        to={to}
                        fw={600}
                        size="sm"
                        onClick={(event) => event.stopPropagation()}
                      >
                        {payment.brokerName}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{payment.reservationNumber}</Text>
                      {payment.isSecondPayment ? (
                        <Text size="xs" c="dimmed">
                          Segundo Pago
                        </Text>
                      ) : null}
                    </Table.Td>
                    <Table.Td>
                      <Badge
                        color={status.color}
                        variant="light"
                        tt="none"
                        maw={240}
                        title={status.label}
                        data-testid="payment-status"
                      >
                        {status.label}
                      </Badge>
                    </Table.Td>
                    <Table.Td ta="right">
                      {payment.daysOverdue === null ? (
                        <Text span c="dimmed" size="sm">
                          —
                        </Text>
                      ) : (
                        <Text
                          span
                          size="sm"
                          fw={payment.daysOverdue > 0 ? 700 : 400}
                          c={payment.daysOverdue > 0 ? 'red' : undefined}
                        >
                          {formatInteger(payment.daysOverdue)}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      {payment.assigneeName ??
                        (payment.currentTaskName ? (
                          <Text span c="dimmed" size="sm">
                            Sin asignar
                          </Text>
                        ) : (
                          '—'
                        ))}
                    </Table.Td>
                    <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                      {formatUF(payment.amount)}
                    </Table.Td>
                    <Table.Td>{payment.paymentDate ? formatDate(payment.paymentDate) : '—'}</Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Box>
    </>
  );
}
