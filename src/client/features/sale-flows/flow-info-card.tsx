import { ActionIcon, Badge, Group, Paper, SimpleGrid, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconCheck, IconPencil, IconX } from '@tabler/icons-react';
import { type KeyboardEvent, type ReactNode, useState } from 'react';
import { flowStatusBadges } from '../../../shared/domain/workflow/statuses';
import { formatDate, formatMonthYear } from '../../../shared/format';
import type { SaleFlowDetail, SaleFlowReservationBody } from '../../../shared/schemas/sale-flows';
import { DateField } from '../../components/date-field';
import { ErrorAlert } from '../../components/error-alert';
import { MONTH_INPUT_MESSAGE, MonthInput } from './month-input';

export type ReservationPatch = Omit<SaleFlowReservationBody, 'version'>;

const dash = (
  <Text span c="dimmed">
    —
  </Text>
);

/** A labelled value of an info card. */
export function InfoItem({
  label,
  children,
  testId,
}: {
  label: string;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <Stack gap={2} style={{ minWidth: 0 }}>
      <Text size="xs" c="dimmed" fw={500}>
        {label}
      </Text>
      <div data-testid={testId} style={{ overflowWrap: 'anywhere' }}>
        {children}
      </div>
    </Stack>
  );
}

/**
 * A value edited in place: shown with a pencil; while editing, its input with 'Guardar' (also Enter)
 * and 'Cancelar' (also Escape). `read` turns the draft into what is saved, or undefined when the
 * draft is not valid (the input says why).
 */
function EditableItem<Draft>({
  label,
  shown,
  initialDraft,
  read,
  editor,
  onSave,
  saving,
  disabled,
  testId,
}: {
  label: string;
  shown: ReactNode;
  initialDraft: Draft;
  read: (draft: Draft) => ReservationPatch | undefined;
  editor: (props: {
    draft: Draft;
    setDraft: (draft: Draft) => void;
    onKeyDown: (event: KeyboardEvent) => void;
    /** A save was tried with a draft that is not valid: say why. */
    showInvalid: boolean;
  }) => ReactNode;
  onSave: (patch: ReservationPatch) => Promise<unknown>;
  saving: boolean;
  disabled: boolean;
  testId?: string;
}) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(initialDraft);
  const [showInvalid, setShowInvalid] = useState(false);
  const save = async () => {
    const patch = read(draft);
    if (!patch) {
      setShowInvalid(true);
      return;
    }
    try {
      await onSave(patch);
      setEditing(false);
    } catch {
      // The card shows the server's message; the editor stays open with what was typed.
    }
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      void save();
    } else if (event.key === 'Escape') {
      setEditing(false);
    }
  };

  if (!editing) {
    return (
      <InfoItem label={label} testId={testId}>
        <Group gap={4} wrap="nowrap">
          <Text size="sm">{shown}</Text>
          {disabled ? null : (
            <Tooltip label={`Editar ${label.toLowerCase()}`} withArrow>
              <ActionIcon
                variant="subtle"
                size="sm"
                aria-label={`Editar ${label.toLowerCase()}`}
                onClick={() => {
                  setDraft(initialDraft);
                  setShowInvalid(false);
                  setEditing(true);
                }}
              >
                <IconPencil size={14} />
              </ActionIcon>
            </Tooltip>
          )}
        </Group>
      </InfoItem>
    );
  }
  return (
    <InfoItem label={label}>
      <Group gap={4} wrap="nowrap" align="flex-start">
        <div style={{ flex: 1, minWidth: 0 }}>{editor({ draft, setDraft, onKeyDown, showInvalid })}</div>
        <ActionIcon variant="filled" aria-label="Guardar" loading={saving} onClick={() => void save()} mt={4}>
          <IconCheck size={16} />
        </ActionIcon>
        <ActionIcon
          variant="default"
          aria-label="Cancelar"
          disabled={saving}
          onClick={() => setEditing(false)}
          mt={4}
        >
          <IconX size={16} />
        </ActionIcon>
      </Group>
    </InfoItem>
  );
}

function DateItem({
  label,
  field,
  value,
  ...common
}: {
  label: string;
  field: 'promiseDate' | 'deedDate';
  value: string | null;
  onSave: (patch: ReservationPatch) => Promise<unknown>;
  saving: boolean;
  disabled: boolean;
}) {
  return (
    <EditableItem<string | null>
      label={label}
      shown={value ? formatDate(value) : dash}
      initialDraft={value}
      read={(draft) => ({ [field]: draft })}
      editor={({ draft, setDraft, onKeyDown }) => (
        <DateField
          aria-label={label}
          size="xs"
          value={draft}
          onChange={setDraft}
          onKeyDown={onKeyDown}
          clearable
          autoFocus
        />
      )}
      {...common}
    />
  );
}

function MonthItem({
  label,
  field,
  value,
  testId,
  ...common
}: {
  label: string;
  field: 'commissionPaymentMonth' | 'commissionProjectionMonth';
  value: string | null;
  testId: string;
  onSave: (patch: ReservationPatch) => Promise<unknown>;
  saving: boolean;
  disabled: boolean;
}) {
  return (
    <EditableItem<string | null | undefined>
      label={label}
      testId={testId}
      shown={value ? formatMonthYear(value) : dash}
      initialDraft={value}
      read={(draft) => (draft === undefined ? undefined : { [field]: draft })}
      editor={({ draft, setDraft, onKeyDown, showInvalid }) => (
        <MonthInput
          aria-label={label}
          size="xs"
          value={draft}
          onChange={setDraft}
          onKeyDown={onKeyDown}
          error={showInvalid && draft === undefined ? MONTH_INPUT_MESSAGE : undefined}
          autoFocus
        />
      )}
      {...common}
    />
  );
}

/**
 * The flow's info card (spec part 2 §2): client, project, apartment, current stage, broker and the
 * reservation's dates and commission months. Promise and deed dates and both months are edited in
 * place (not on a rescinded reservation).
 */
export function FlowInfoCard({
  flow,
  onSave,
  saving,
  error,
}: {
  flow: SaleFlowDetail;
  onSave: (patch: ReservationPatch) => Promise<unknown>;
  saving: boolean;
  error: unknown;
}) {
  const { reservation } = flow;
  const locked = reservation.isRescinded;
  const common = { onSave, saving, disabled: locked };
  // A cancelled flow has no stage under way (its stages say where it stopped), as a payment flow says.
  const stage =
    flow.status === 'cancelled'
      ? 'Cancelado'
      : (flow.currentStageName ?? (flow.status === 'completed' ? 'Completado' : 'No iniciado'));
  return (
    <Paper withBorder radius="md" p="md">
      <Group justify="space-between" mb="sm" wrap="wrap" gap="xs">
        <Title order={4}>Información General</Title>
        <Badge color={flowStatusBadges[flow.status].color} variant="light">
          {flowStatusBadges[flow.status].label}
        </Badge>
      </Group>
      <ErrorAlert error={error} />
      <SimpleGrid cols={{ base: 2, md: 3 }} spacing="md" verticalSpacing="sm">
        <InfoItem label="Cliente">
          <Text size="sm" fw={500}>
            {flow.client.firstName} {flow.client.lastName}
            {flow.client.isDeleted ? (
              <Badge ml={6} size="xs" color="gray">
                Eliminado
              </Badge>
            ) : null}
          </Text>
        </InfoItem>
        <InfoItem label="Proyecto">
          <Text size="sm">
            {flow.project.name} · {flow.project.stage}
          </Text>
        </InfoItem>
        <InfoItem label="Departamento">
          <Text size="sm">{reservation.apartmentNumber}</Text>
        </InfoItem>
        <InfoItem label="Etapa Actual" testId="current-stage">
          <Text size="sm" fw={500}>
            {stage}
          </Text>
        </InfoItem>
        <InfoItem label="Broker">
          <Text size="sm">{flow.broker ? flow.broker.name : 'Sin broker'}</Text>
        </InfoItem>
        <InfoItem label="Fecha de Reserva">
          <Text size="sm">{formatDate(reservation.reservationDate)}</Text>
        </InfoItem>
        <DateItem label="Fecha de Promesa" field="promiseDate" value={reservation.promiseDate} {...common} />
        <DateItem label="Fecha de Escritura" field="deedDate" value={reservation.deedDate} {...common} />
        <MonthItem
          label="Mes de Pago Comisión"
          field="commissionPaymentMonth"
          value={reservation.commissionPaymentMonth}
          testId="payment-month"
          {...common}
        />
        <MonthItem
          label="Mes Proyección Comisión"
          field="commissionProjectionMonth"
          value={reservation.commissionProjectionMonth}
          testId="projection-month"
          {...common}
        />
      </SimpleGrid>
    </Paper>
  );
}
