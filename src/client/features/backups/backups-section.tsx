import {
  Alert,
  Anchor,
  Badge,
  Button,
  Code,
  Group,
  List,
  Loader,
  Paper,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import {
  IconAlertTriangle,
  IconDatabaseExport,
  IconDownload,
  IconEraser,
  IconInfoCircle,
  IconLock,
} from '@tabler/icons-react';
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

/** Backups carry every client's data: unencrypted, whoever holds a copy reads them (issue 54). */
function UnencryptedWarning() {
  return (
    <Alert color="red" icon={<IconLock size={18} />} title="Los respaldos no están cifrados">
      <Stack gap={4}>
        <Text size="sm">
          Cada respaldo contiene los datos personales de todos los clientes. Sin cifrar, cualquiera que
          obtenga una copia (un disco, una carpeta compartida, una descarga) puede leerlos.
        </Text>
        <Text size="sm">
          Para cifrarlos, defina la variable <Code>BACKUP_KEY</Code> con una clave larga (por ejemplo, 32
          letras y números al azar) y reinicie el servidor: los respaldos siguientes se cifran con
          AES-256-GCM. Guarde la clave fuera de este equipo: sin ella un respaldo cifrado no se puede
          restaurar. Los respaldos ya creados siguen sin cifrar.
        </Text>
      </Stack>
    </Alert>
  );
}

/** When a suppression's old values were last scrubbed from the database's files (decision 0054). */
function ScrubStatus({
  scrub,
  engine,
}: {
  scrub: BackupsResponse['scrub'];
  engine: BackupsResponse['engine'];
}) {
  if (scrub.pending > 0) {
    return (
      <Alert
        color="yellow"
        icon={<IconEraser size={18} />}
        title="Borrado de los archivos pendiente"
        data-scrub="pending"
      >
        <Text size="sm">
          {scrub.pending === 1 ? 'Una supresión' : `${scrub.pending} supresiones`} de datos personales
          {scrub.oldestPendingAt ? ` (desde el ${formatDateTime(scrub.oldestPendingAt)})` : ''}{' '}
          {scrub.pending === 1 ? 'ya no se ve' : 'ya no se ven'} en ninguna pantalla, pero sus valores
          antiguos siguen en los archivos de la base de datos hasta que se reescriben: esta noche con la
          mantención (04:00)
          {engine === 'pglite'
            ? ' o antes, al crear el próximo respaldo, que los borra antes de copiar.'
            : '. Los registros de transacciones (WAL) archivados y la recuperación a un instante (PITR) del proveedor los conservan mientras dure su retención: vea el README.'}
        </Text>
      </Alert>
    );
  }
  return (
    <Text size="sm" c="dimmed" data-scrub="done">
      {scrub.lastScrubbedAt
        ? `Datos suprimidos borrados de los archivos de la base de datos el ${formatDateTime(scrub.lastScrubbedAt)}.`
        : 'No hay supresiones de datos personales pendientes de borrar de los archivos.'}
    </Text>
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
                {backup.removedAtNextNightly && (
                  <Text size="xs" c="dimmed">
                    Se borrará tras el respaldo de esta noche
                  </Text>
                )}
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
  if (data.engine === 'postgres')
    return (
      <Stack gap="md">
        <PostgresNotice />
        <ScrubStatus scrub={data.scrub} engine={data.engine} />
      </Stack>
    );
  const { retention } = data;
  const createNow = () =>
    create.mutate(undefined, {
      onSuccess: () => notifySaved('Respaldo creado'),
      onError: (error) => notifyError(errorMessage(error)),
    });
  return (
    <Stack gap="lg">
      {!data.isEncrypted && <UnencryptedWarning />}
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
          {(create.isPending || data.isInProgress) && (
            <Alert color="blue" icon={<Loader size={16} />} data-backup-progress>
              Creando el respaldo: primero se borran de los archivos los datos suprimidos pendientes, luego se
              copia la base de datos mientras todos siguen trabajando, se comprime
              {data.isEncrypted ? ', se cifra' : ''} y se comprueba. Suele tardar menos de un minuto; puede
              seguir usando el sistema.
            </Alert>
          )}
          <ErrorAlert error={create.error} />
          <ScrubStatus scrub={data.scrub} engine={data.engine} />
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
            {retention.weekly} semanas y {retention.monthly} meses. Un respaldo creado a mano se conserva al
            menos hasta el respaldo de la noche siguiente; los que esa noche se borrarán están marcados.
          </List.Item>
          <List.Item>
            {data.isEncrypted
              ? 'Cifrados con la clave BACKUP_KEY: sin ella no se pueden restaurar; guárdela fuera de este equipo.'
              : 'Sin cifrar: defina BACKUP_KEY para cifrarlos (AES-256-GCM).'}
          </List.Item>
          <List.Item>
            Para restaurar, con el servidor detenido: <Code>npm run restore -- &lt;archivo&gt;</Code>. La
            restauración repite cada supresión de datos personales posterior al respaldo, leída del registro{' '}
            <Code>suppressions.ledger.json</Code> que se guarda junto a los respaldos: cópielo con ellos.
          </List.Item>
        </List>
      </Paper>
    </Stack>
  );
}
