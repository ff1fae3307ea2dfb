import { ActionIcon, Badge, Group, Tooltip } from '@mantine/core';
import { IconFileDescription, IconFolder, IconListCheck, IconUser } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '../../app/paths';
import { RestrictionBadge } from '../data-requests';

/**
 * An icon button of a flow screen's header: a link when it leads somewhere, a button when it acts,
 * otherwise disabled with why.
 */
export function HeaderIcon({
  label,
  icon,
  to,
  disabledReason,
  onClick,
  loading,
}: {
  label: string;
  icon: ReactNode;
  to?: string | null;
  disabledReason?: string;
  onClick?: (() => void) | undefined;
  loading?: boolean;
}) {
  const disabled = !to && !onClick;
  return (
    <Tooltip label={disabled && disabledReason ? disabledReason : label} withArrow>
      {to ? (
        <ActionIcon component={Link} to={to} variant="light" size="lg" aria-label={label}>
          {icon}
        </ActionIcon>
      ) : (
        <ActionIcon
          variant="light"
          size="lg"
          aria-label={label}
          disabled={disabled}
          loading={loading}
          onClick={onClick}
        >
          {icon}
        </ActionIcon>
      )}
    </Tooltip>
  );
}

/**
 * The shortcuts of a flow screen's header (spec part 2 §2): the client and the reservation first,
 * then what the screen adds (`children`), then the reservation's documents (issue 35) and the
 * follow-up.
 */
export function FlowShortcuts({
  clientId,
  reservationId,
  children,
}: {
  clientId: string;
  reservationId: string;
  children: ReactNode;
}) {
  return (
    <Group gap={6} wrap="wrap">
      <HeaderIcon label="Editar cliente" icon={<IconUser size={18} />} to={paths.editClient(clientId)} />
      <HeaderIcon
        label="Editar reserva"
        icon={<IconFileDescription size={18} />}
        to={paths.editReservation(reservationId)}
      />
      {children}
      <HeaderIcon
        label="Documentos"
        icon={<IconFolder size={18} />}
        to={paths.reservationDocuments(reservationId)}
      />
      <HeaderIcon label="Seguimiento" icon={<IconListCheck size={18} />} to={paths.followUp} />
    </Group>
  );
}

/**
 * Under a flow screen's title: whose reservation it is (marked when the holder opposed or blocked the
 * processing of their data, as the server says), where, and 'Resciliada' once rescinded.
 */
export function FlowHeaderDescription({
  client,
  projectName,
  apartmentNumber,
  isRescinded,
}: {
  client: { firstName: string; lastName: string; restriction?: 'opposition' | 'blocking' | null };
  projectName: string;
  apartmentNumber: string;
  isRescinded: boolean;
}) {
  return (
    <Group gap="xs" component="span" wrap="wrap">
      <span>
        {client.firstName} {client.lastName} · {projectName} · Depto. {apartmentNumber}
      </span>
      {client.restriction ? (
        <RestrictionBadge restriction={client.restriction} size="md" data-testid="client-restriction" />
      ) : null}
      {isRescinded ? (
        <Badge color="red" size="md">
          Resciliada
        </Badge>
      ) : null}
    </Group>
  );
}
