import { Badge, type BadgeProps, Text } from '@mantine/core';
import { formatRut } from '../../../shared/domain/rut';
import { formatDate } from '../../../shared/format';
import {
  type DataRequestRow,
  type DataRequestStatus,
  dataRequestStatusLabels,
  OPEN_DATA_REQUEST_STATUSES,
} from '../../../shared/schemas/data-requests';

// The small pieces the register, the request's page, the client screens and /notificaciones share.

export type HolderRestriction = 'opposition' | 'blocking';

/** How the client screens name a holder's restriction (Ley 21.719). */
export const restrictionLabels: Record<HolderRestriction, string> = {
  opposition: 'Oposición al tratamiento',
  blocking: 'Datos bloqueados',
};

/** The list's short form of it. */
const restrictionShortLabels: Record<HolderRestriction, string> = {
  opposition: 'Oposición',
  blocking: 'Bloqueado',
};

const STATUS_COLORS: Record<DataRequestStatus, string> = {
  pending: 'blue',
  in_progress: 'yellow',
  answered: 'green',
  rejected: 'gray',
};

/** 'Vence en 12 días', 'Vence en 1 día', 'Vence hoy', 'Vencida hace 3 días' (days on the Santiago calendar). */
export function deadlineText(daysLeft: number): string {
  if (daysLeft === 0) return 'Vence hoy';
  if (daysLeft > 0) return `Vence en ${daysLeft} ${daysLeft === 1 ? 'día' : 'días'}`;
  return overdueText(-daysLeft);
}

/** 'Vencida hace 1 día' / 'Vencida hace 4 días'. */
export function overdueText(daysOverdue: number): string {
  return `Vencida hace ${daysOverdue} ${daysOverdue === 1 ? 'día' : 'días'}`;
}

/** A request still to be answered: its deadline counts (the server's own list of statuses). */
export function isOpenRequest(status: DataRequestStatus): boolean {
  return (OPEN_DATA_REQUEST_STATUSES as readonly DataRequestStatus[]).includes(status);
}

/**
 * The due date and, while the request is open, how long is left: red once overdue (the server's
 * `isOverdue`), orange on its last day. A request answered or rejected shows its date alone.
 */
export function Deadline({
  request,
}: {
  request: Pick<DataRequestRow, 'dueDate' | 'daysLeft' | 'isOverdue' | 'status'>;
}) {
  const open = isOpenRequest(request.status);
  // Blocks, not a flex column: they follow the cell's alignment (left in a table, right on a phone's card).
  return (
    <div>
      <Text size="sm">{formatDate(request.dueDate)}</Text>
      {open ? (
        <Text
          size="xs"
          fw={request.isOverdue || request.daysLeft === 0 ? 600 : undefined}
          c={request.isOverdue ? 'red' : request.daysLeft === 0 ? 'orange' : 'dimmed'}
          data-testid="deadline"
          data-overdue={request.isOverdue || undefined}
        >
          {deadlineText(request.daysLeft)}
        </Text>
      ) : null}
    </div>
  );
}

export function RequestStatusBadge({ status, ...props }: { status: DataRequestStatus } & BadgeProps) {
  return (
    <Badge color={STATUS_COLORS[status]} variant="light" miw="max-content" {...props}>
      {dataRequestStatusLabels[status]}
    </Badge>
  );
}

/** The small mark of a restricted client in lists ('Oposición' / 'Bloqueado'), its full name as its title. */
export function RestrictionBadge({ restriction, ...props }: { restriction: HolderRestriction } & BadgeProps) {
  return (
    <Badge
      color={restriction === 'blocking' ? 'red' : 'orange'}
      variant="light"
      size="sm"
      miw="max-content"
      title={restrictionLabels[restriction]}
      {...props}
    >
      {restrictionShortLabels[restriction]}
    </Badge>
  );
}

/** Who the request is from: the client's name ('Titular suprimido' as is), or the RUT of a non-client. */
export function holderName(request: Pick<DataRequestRow, 'holder' | 'holderRut'>): string {
  return request.holder ? request.holder.name : formatRut(request.holderRut);
}
