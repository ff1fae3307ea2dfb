import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Card,
  Group,
  List,
  Loader,
  Menu,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import {
  IconDots,
  IconDownload,
  IconEye,
  IconFileTypePdf,
  IconHistory,
  IconPencil,
  IconReplace,
  IconRoute,
  IconTrash,
  IconUpload,
} from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { formatBytes, formatDateTime } from '../../../shared/format';
import type { DocumentView } from '../../../shared/schemas/documents';
import { paths } from '../../app/paths';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { LoadFailed } from '../../components/load-failed';
import { PageHeader } from '../../components/page-header';
import { downloadOnClick } from '../../lib/download';
import { notifySaved } from '../../lib/notify';
import { commissionStatementHref, documentHref, receiptHref, useDeleteDocument, useDocuments } from './api';
import { PreviewDialog, RenameDialog, ReplaceDialog, UploadDialog, VersionsDialog } from './document-dialogs';

type Dialog =
  | { kind: 'preview' | 'rename' | 'replace' | 'versions' | 'delete'; document: DocumentView }
  | { kind: 'upload' }
  | null;

function DocumentActions({
  reservationId,
  document,
  canDelete,
  onDialog,
}: {
  reservationId: string;
  document: DocumentView;
  canDelete: boolean;
  onDialog: (dialog: Dialog) => void;
}) {
  return (
    <Group gap={4} wrap="nowrap" justify="flex-end">
      <ActionIcon
        variant="subtle"
        aria-label={`Vista previa de ${document.name}`}
        disabled={!document.current.isPreviewable}
        onClick={() => onDialog({ kind: 'preview', document })}
      >
        <IconEye size={18} />
      </ActionIcon>
      <ActionIcon
        component="a"
        href={documentHref(reservationId, document.id, 'download')}
        variant="subtle"
        aria-label={`Descargar ${document.name}`}
      >
        <IconDownload size={18} />
      </ActionIcon>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon variant="subtle" aria-label={`Más acciones de ${document.name}`}>
            <IconDots size={18} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item
            leftSection={<IconPencil size={16} />}
            onClick={() => onDialog({ kind: 'rename', document })}
          >
            Renombrar
          </Menu.Item>
          <Menu.Item
            leftSection={<IconReplace size={16} />}
            onClick={() => onDialog({ kind: 'replace', document })}
          >
            Reemplazar (nueva versión)
          </Menu.Item>
          <Menu.Item
            leftSection={<IconHistory size={16} />}
            onClick={() => onDialog({ kind: 'versions', document })}
          >
            Versiones
          </Menu.Item>
          {canDelete ? (
            <Menu.Item
              color="red"
              leftSection={<IconTrash size={16} />}
              onClick={() => onDialog({ kind: 'delete', document })}
            >
              Eliminar
            </Menu.Item>
          ) : null}
        </Menu.Dropdown>
      </Menu>
    </Group>
  );
}

/**
 * /reservas/{id}/documentos: a reservation's papers (issue 35) — reached from the sale flow, the
 * payment flows and the reservation. Upload with a type, preview (PDF and images), download, rename,
 * replace with a new version, delete (administrators); the required documents still missing; the
 * product's own PDFs.
 */
export default function DocumentsPage() {
  const { id = '' } = useParams<{ id: string }>();
  const documents = useDocuments(id);
  const remove = useDeleteDocument(id);
  const [dialog, setDialog] = useState<Dialog>(null);

  if (documents.isLoading) {
    return (
      <Group justify="center" py="xl">
        <Loader role="status" aria-label="Cargando" />
      </Group>
    );
  }
  if (!documents.data) {
    return (
      <LoadFailed
        title="Documentos"
        message={documents.error instanceof Error ? documents.error.message : 'No se encontró la reserva'}
        backTo={paths.reservations}
        backLabel="Volver a Reservas"
      />
    );
  }
  const data = documents.data;
  const { reservation } = data;
  const of = (kind: 'preview' | 'rename' | 'replace' | 'versions' | 'delete') =>
    dialog && 'document' in dialog && dialog.kind === kind ? dialog.document : null;
  const close = () => setDialog(null);

  return (
    <>
      <PageHeader
        title={`Documentos · Reserva N°\u00a0${reservation.reservationNumber}`}
        description={`${reservation.clientName} · ${reservation.projectName} · Depto. ${reservation.apartmentNumber}`}
        actions={
          <>
            {reservation.saleFlowId ? (
              <Button
                component={Link}
                to={paths.reservationFlow(reservation.saleFlowId)}
                variant="default"
                leftSection={<IconRoute size={16} />}
              >
                Flujo de reserva
              </Button>
            ) : null}
            <Button
              component="a"
              href={receiptHref(reservation.id)}
              target="_blank"
              rel="noopener"
              onClick={downloadOnClick(receiptHref(reservation.id), { open: true })}
              variant="default"
              leftSection={<IconFileTypePdf size={16} />}
            >
              Comprobante de Reserva
            </Button>
            {reservation.hasCommission ? (
              <Button
                component="a"
                href={commissionStatementHref(reservation.id)}
                target="_blank"
                rel="noopener"
                onClick={downloadOnClick(commissionStatementHref(reservation.id), { open: true })}
                variant="default"
                leftSection={<IconFileTypePdf size={16} />}
              >
                Liquidación de Comisión
              </Button>
            ) : null}
            <Button leftSection={<IconUpload size={16} />} onClick={() => setDialog({ kind: 'upload' })}>
              Subir documento
            </Button>
          </>
        }
      />
      <Stack gap="md">
        {data.missing.length > 0 ? (
          <Alert color="yellow" title="Documentos requeridos pendientes">
            <List size="sm">
              {data.missing.map((missing) => (
                <List.Item key={`${missing.typeName}-${missing.taskName}`}>
                  {missing.typeName} (lo requiere la tarea {missing.taskName})
                </List.Item>
              ))}
            </List>
          </Alert>
        ) : null}
        <Card withBorder padding={0}>
          {data.documents.length === 0 ? (
            <Text c="dimmed" size="sm" p="md">
              Esta reserva aún no tiene documentos.
            </Text>
          ) : (
            <Table.ScrollContainer minWidth={340}>
              <Table verticalSpacing="xs" highlightOnHover aria-label="Documentos de la reserva">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Documento</Table.Th>
                    <Table.Th visibleFrom="sm">Tipo</Table.Th>
                    <Table.Th visibleFrom="md">Versión</Table.Th>
                    <Table.Th visibleFrom="md">Subido por</Table.Th>
                    <Table.Th visibleFrom="sm">Fecha</Table.Th>
                    <Table.Th visibleFrom="md" ta="right">
                      Tamaño
                    </Table.Th>
                    <Table.Th ta="right">Acciones</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.documents.map((document) => (
                    <Table.Tr key={document.id} data-document={document.name}>
                      <Table.Td>
                        <Stack gap={2}>
                          <Text size="sm" fw={500} style={{ wordBreak: 'break-word' }}>
                            {document.name}
                          </Text>
                          <Text size="xs" c="dimmed" hiddenFrom="sm">
                            {document.typeName} · v{document.current.number} ·{' '}
                            {formatDateTime(document.current.createdAt)}
                          </Text>
                        </Stack>
                      </Table.Td>
                      <Table.Td visibleFrom="sm">
                        <Group gap={4}>
                          <Text size="sm">{document.typeName}</Text>
                          {document.typeIsRestricted ? (
                            <Badge size="xs" variant="light" color="grape">
                              Pagos
                            </Badge>
                          ) : null}
                        </Group>
                      </Table.Td>
                      <Table.Td visibleFrom="md">{document.current.number}</Table.Td>
                      <Table.Td visibleFrom="md">{document.current.createdByName ?? 'Sistema'}</Table.Td>
                      <Table.Td visibleFrom="sm" style={{ whiteSpace: 'nowrap' }}>
                        {formatDateTime(document.current.createdAt)}
                      </Table.Td>
                      <Table.Td visibleFrom="md" ta="right" style={{ whiteSpace: 'nowrap' }}>
                        {formatBytes(document.current.byteSize)}
                      </Table.Td>
                      <Table.Td>
                        <DocumentActions
                          reservationId={reservation.id}
                          document={document}
                          canDelete={data.canDelete}
                          onDialog={setDialog}
                        />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Card>
      </Stack>

      <UploadDialog
        reservationId={reservation.id}
        types={data.types}
        opened={dialog?.kind === 'upload'}
        onClose={close}
      />
      <PreviewDialog reservationId={reservation.id} document={of('preview')} onClose={close} />
      <RenameDialog reservationId={reservation.id} document={of('rename')} onClose={close} />
      <ReplaceDialog reservationId={reservation.id} document={of('replace')} onClose={close} />
      <VersionsDialog reservationId={reservation.id} document={of('versions')} onClose={close} />
      <ConfirmDialog
        opened={of('delete') !== null}
        title="Eliminar documento"
        confirmLabel="Eliminar"
        pendingLabel="Eliminando..."
        loading={remove.isPending}
        error={remove.error}
        onConfirm={() => {
          const target = of('delete');
          if (target)
            remove.mutate(target, {
              onSuccess: () => {
                notifySaved('Documento eliminado');
                close();
              },
            });
        }}
        onClose={() => {
          remove.reset();
          close();
        }}
      >
        ¿Eliminar «{of('delete')?.name}» y todas sus versiones? Queda registrado en el historial de la
        reserva.
      </ConfirmDialog>
    </>
  );
}
