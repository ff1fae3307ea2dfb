import { ActionIcon, Tooltip } from '@mantine/core';
import { IconFolder } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { notify } from '../../lib/notify';

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

/** 'Documentos': the spec shows it as a screen still under development. */
export function DocumentsHeaderIcon() {
  return (
    <HeaderIcon
      label="Documentos"
      icon={<IconFolder size={18} />}
      onClick={() => notify({ color: 'blue', message: 'Documentos: en desarrollo', autoClose: 3000 })}
    />
  );
}
