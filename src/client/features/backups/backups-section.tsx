import {
  Alert,
  Anchor,
  Badge,
  Button,
  Code,
  Group,
  List,
  Paper,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconAlertTriangle, IconDatabaseExport, IconDownload, IconInfoCircle } from '@tabler/icons-react';
import { formatBytes, formatDateTime } from '../../../shared/format';
import { BACKUP_KIND_LABELS, type BackupsResponse } from '../../../shared/schemas/backups';
import { ErrorAlert } from '../../components/error-alert';
import { errorMessage } from '../../lib/api';
import { downloadOnClick } from '../../lib/download';
import { notifyError, notifySaved } from '../../lib/notify';
import { backupDownloadHref, useBackups, useCreateBackup } from './api';

/** On PostgreSQL the product is not the database's backup: what to use instead (decision 0031). */
function PostgresNotice() {
  return (
    <Alert color="blue" icon={<IconInfoCircle size={18} />} title="Esta instalación usa PostgreSQL">
      <Stack gap="xs">
        <Text size="sm">
          Inmoflujo no respalda PostgreSQL: sus respaldos son los de la base de datos. Use{' '}
          <Code>pg_dump</Code> / <Code>pg_restore</Code> para copias completas y la recuperación a un instante
          (PITR) de su proveedor para volver a un momento exacto.
        </Text>
        <Text size="sm">El procedimiento probado está en la sección «Operación» del README.</Text>
      </Stack>
    </Alert>
  );
}

function SameDiskWarning({ backupDir }: { backupDir: string }) {
  return (
    <Alert
      color="orange"
      icon={<IconAlertTriangle size={18} />}
      title="Los respaldos están en el mismo disco que los datos"
    >
      <Text size="sm">
        Si ese disco falla se pierden los datos y sus respaldos a la vez. Apunte la variable{' '}
        <Code>BACKUP_DIR</Code> a otro disco o a una carpeta de red (hoy: <Code>{backupDir}</Code>) y reinicie
        el servidor; copie además los respaldos fuera de la oficina de vez en cuando.
      </Text>
    </Alert>
  );
}

function BackupsTable({ data }: { data: BackupsResponse }) {
  if (data.backups.length === 0) {
    return (
      <Text c="dimmed" size="sm">
        Aún no hay respaldos.
      </Text>
    );
  }
  return (
    <Table.ScrollContainer minWidth={300}>
      <Table striped highlightOnHover verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Fecha</Table.Th>
            <Table.Th>Tipo</Table.Th>
            <Table.Th ta="right">Tamaño</Table.Th>
            <Table.Th>
              <VisuallyHidden>Descargar</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {data.backups.map((backup) => (
            <Table.Tr key={backup.name} data-backup={backup.name}>
              <Table.Td>{formatDateTime(backup.createdAt)}</Table.Td>
              <Table.Td>
                <Group gap={6}>
                  {BACKUP_KIND_LABELS[backup.kind]}
                  {backup.encrypted && (
                    <Badge size="sm" variant="light" color="gray">
                      Cifrado
                    </Badge>
                  )}
                </Group>
              </Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                {formatBytes(backup.bytes)}
              </Table.Td>
              <Table.Td ta="right">
                <Anchor
                  href={backupDownloadHref(backup.name)}
                  download={backup.name}
                  onClick={downloadOnClick(backupDownloadHref(backup.name))}
                  size="sm"
                  aria-label={`Descargar respaldo del ${formatDateTime(backup.createdAt)}`}
                >
                  <Group gap={4} wrap="nowrap" justify="flex-end">
                    <IconDownload size={16} aria-hidden />
                    {/* On a phone the icon alone: the link's name says what it downloads. */}
                    <Text span inherit visibleFrom="sm">
                      Descargar
                    </Text>
                  </Group>
                </Anchor>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Configuración → Respaldos (administrators): the embedded database's backups on disk. */
export default function BackupsSection() {
  const backups = useBackups();
  const create = useCreateBackup();
  if (backups.isError) return <ErrorAlert error={backups.error} />;
  const data = backups.data;
  if (!data) return null;
  if (data.engine === 'postgres') return <PostgresNotice />;
  const { retention } = data;
  const createNow = () =>
    create.mutate(undefined, {
      onSuccess: () => notifySaved('Respaldo creado'),
      onError: (error) => notifyError(errorMessage(error)),
    });
  return (
    <Stack gap="lg">
      {data.isOnDataDisk && data.backupDir && <SameDiskWarning backupDir={data.backupDir} />}
      <Paper withBorder p="md">
        <Stack gap="sm">
          <Group justify="space-between" align="flex-start" gap="sm">
            <div>
              <Title order={2} size="h4">
                Respaldos de la base de datos
              </Title>
              <Text size="sm" c="dimmed">
                Cada noche a las 03:00 (hora de Santiago) y antes de cada actualización que cambie la base de
                datos.
              </Text>
            </div>
            <Button
              leftSection={<IconDatabaseExport size={18} />}
              loading={create.isPending || data.isInProgress}
              onClick={createNow}
            >
              Crear respaldo ahora
            </Button>
          </Group>
          <ErrorAlert error={create.error} />
          <BackupsTable data={data} />
        </Stack>
      </Paper>
      <Paper withBorder p="md">
        <Title order={2} size="h5" mb="xs">
          Cómo se guardan
        </Title>
        <List size="sm" spacing={4}>
          <List.Item>
            Carpeta: <Code>{data.backupDir}</Code> (variable <Code>BACKUP_DIR</Code>).
          </List.Item>
          <List.Item>
            Se conservan el último respaldo de cada uno de los últimos {retention.daily} días,{' '}
            {retention.weekly} semanas y {retention.monthly} meses.
          </List.Item>
          <List.Item>
            {data.isEncrypted
              ? 'Cifrados con la clave BACKUP_KEY: sin ella no se pueden restaurar; guárdela fuera de este equipo.'
              : 'Sin cifrar: defina BACKUP_KEY para cifrarlos (AES-256-GCM).'}
          </List.Item>
          <List.Item>
            Para restaurar, con el servidor detenido: <Code>npm run restore -- &lt;archivo&gt;</Code>.
          </List.Item>
        </List>
      </Paper>
    </Stack>
  );
}
