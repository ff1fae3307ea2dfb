import { Alert, Anchor, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { Link } from 'react-router';
import { formatDateTime, formatInteger } from '../../../shared/format';
import { can } from '../../../shared/permissions';
import { paths } from '../../app/paths';
import { useCurrentUser } from '../../lib/session';
import { useBackupStatus } from './api';

/** 'hace 30 horas', 'hace 3 días'. */
export function ageText(since: string, now: Date = new Date()): string {
  const hours = Math.max(0, Math.floor((now.getTime() - new Date(since).getTime()) / 3_600_000));
  if (hours < 48) return `hace ${formatInteger(hours)} ${hours === 1 ? 'hora' : 'horas'}`;
  return `hace ${formatInteger(Math.floor(hours / 24))} días`;
}

/**
 * The administrators' dashboard: a warning when the last good backup is older than 26 hours (or there
 * is none). The server says whether it is stale; on PostgreSQL it says nothing (no warning).
 */
export function BackupWarning() {
  const user = useCurrentUser();
  const managesBackups = can(user, 'backups.manage');
  const { data: status } = useBackupStatus(managesBackups);
  if (!managesBackups || !status?.isStale) return null;
  return (
    <Alert
      color="orange"
      icon={<IconAlertTriangle size={18} />}
      title="Respaldo atrasado"
      mb="md"
      data-testid="backup-warning"
    >
      <Text size="sm">
        {status.lastGoodAt
          ? `El último respaldo correcto es del ${formatDateTime(status.lastGoodAt)} (${ageText(status.lastGoodAt)}).`
          : 'Aún no hay ningún respaldo de la base de datos.'}{' '}
        {/* The alert's own dark text colour: the link blue on orange is below 4.5:1. */}
        <Anchor
          component={Link}
          to={paths.settingsTab('respaldos')}
          size="sm"
          c="inherit"
          fw={600}
          underline="always"
        >
          Ir a Respaldos
        </Anchor>
      </Text>
    </Alert>
  );
}
