import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  FileInput,
  Group,
  List,
  Loader,
  Menu,
  Modal,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
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
import { DOCUMENT_ACCEPT, DOCUMENT_MAX_BYTES, type DocumentView } from '../../../shared/schemas/documents';
import { paths } from '../../app/paths';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ErrorAlert } from '../../components/error-alert';
import { FormDialog } from '../../components/form-dialog';
import { LoadFailed } from '../../components/load-failed';
import { PageHeader } from '../../components/page-header';
import { downloadOnClick } from '../../lib/download';
import { notifySaved } from '../../lib/notify';
import {
  commissionStatementHref,
  documentHref,
  receiptHref,
  useDeleteDocument,
  useDocuments,
  useDocumentVersions,
  useRenameDocument,
  useReplaceDocument,
  useUploadDocument,
} from './api';
import { PdfPreviewFrame } from './pdf-preview-frame';

const TOO_LARGE = 'El archivo supera el máximo de 20 MB: no se guardó. Reduzca su tamaño o divídalo.';

/** 'Subir documento': a type and a file (the server judges the bytes; 20 MB at most). */
function UploadDialog({
  reservationId,
  types,
  opened,
  onClose,
}: {
  reservationId: string;
  types: { id: string; name: string }[];
  opened: boolean;
  onClose: () => void;
}) {
  const upload = useUploadDocument(reservationId);
  const [typeId, setTypeId] = useState<string | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const close = () => {
    setTypeId(null);
    setFile(null);
    setProblem(null);
    upload.reset();
    onClose();
  };
  const submit = () => {
    if (!typeId) return setProblem('Seleccione el tipo de documento');
    const refused = fileProblem(file);
    if (refused || !file) return setProblem(refused);
    setProblem(null);
    upload.mutate(
      { file, typeId },
      {
        onSuccess: (document) => {
          notifySaved(`Documento «${document.name}» subido`);
          close();
        },
      },
    );
  };
  return (
    <FormDialog
      opened={opened}
      title="Subir documento"
      saving={upload.isPending}
      error={problem ?? upload.error}
      submitLabel="Subir"
      onSubmit={submit}
      onClose={close}
    >
      <Select
        label="Tipo de documento"
        placeholder="Seleccione"
        data={types.map((type) => ({ value: type.id, label: type.name }))}
        value={typeId}
        onChange={setTypeId}
        required
        comboboxProps={{ withinPortal: true }}
      />
      <DocumentFileInput
        value={file}
        onChange={setFile}
        description="PDF, imagen (PNG, JPEG, GIF, WebP), Word o Excel; hasta 20 MB"
      />
    </FormDialog>
  );
}

/** What is wrong with the chosen file before it is sent (the server judges it again), or null. */
function fileProblem(file: File | null): string | null {
  if (!file) return 'Seleccione el archivo';
  return file.size > DOCUMENT_MAX_BYTES ? TOO_LARGE : null;
}

function DocumentFileInput({
  value,
  onChange,
  description,
}: {
  value: File | null;
  onChange: (file: File | null) => void;
  description?: string;
}) {
  return (
    <FileInput
      label="Archivo"
      description={description}
      placeholder="Seleccione un archivo"
      accept={DOCUMENT_ACCEPT}
      value={value}
      onChange={onChange}
      clearable
      required
    />
  );
}

function ReplaceDialog({
  reservationId,
  document,
  onClose,
}: {
  reservationId: string;
  document: DocumentView | null;
  onClose: () => void;
}) {
  const replace = useReplaceDocument(reservationId);
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const close = () => {
    setFile(null);
    setProblem(null);
    replace.reset();
    onClose();
  };
  const submit = () => {
    if (!document) return;
    const refused = fileProblem(file);
    if (refused || !file) return setProblem(refused);
    replace.mutate(
      { document, file },
      {
        onSuccess: (saved) => {
          notifySaved(`Versión ${saved.current.number} de «${saved.name}» guardada`);
          close();
        },
      },
    );
  };
  return (
    <FormDialog
      opened={document !== null}
      title="Reemplazar por una nueva versión"
      saving={replace.isPending}
      error={problem ?? replace.error}
      submitLabel="Subir nueva versión"
      onSubmit={submit}
      onClose={close}
    >
      <Text size="sm">
        «{document?.name}» pasa a la versión {(document?.current.number ?? 0) + 1}; las anteriores quedan en
        su historial.
      </Text>
      <DocumentFileInput value={file} onChange={setFile} />
    </FormDialog>
  );
}

function RenameDialog({
  reservationId,
  document,
  onClose,
}: {
  reservationId: string;
  document: DocumentView | null;
  onClose: () => void;
}) {
  const rename = useRenameDocument(reservationId);
  const [name, setName] = useState<string | null>(null);
  const value = name ?? document?.name ?? '';
  const close = () => {
    setName(null);
    rename.reset();
    onClose();
  };
  return (
    <FormDialog
      opened={document !== null}
      title="Renombrar documento"
      saving={rename.isPending}
      error={rename.error}
      onSubmit={() =>
        document &&
        rename.mutate(
          { document, name: value },
          {
            onSuccess: () => {
              notifySaved('Documento renombrado');
              close();
            },
          },
        )
      }
      onClose={close}
    >
      <TextInput
        label="Nombre"
        value={value}
        onChange={(event) => setName(event.currentTarget.value)}
        required
      />
    </FormDialog>
  );
}

function VersionsDialog({
  reservationId,
  document,
  onClose,
}: {
  reservationId: string;
  document: DocumentView | null;
  onClose: () => void;
}) {
  const versions = useDocumentVersions(reservationId, document?.id ?? null);
  return (
    <Modal
      opened={document !== null}
      onClose={onClose}
      title={<Text fw={700}>Versiones de «{document?.name}»</Text>}
      size="lg"
      centered
      closeButtonProps={{ 'aria-label': 'Cerrar' }}
    >
      <ErrorAlert error={versions.error} />
      {versions.data ? (
        <Table.ScrollContainer minWidth={420}>
          <Table verticalSpacing="xs" aria-label="Versiones">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Versión</Table.Th>
                <Table.Th>Archivo</Table.Th>
                <Table.Th>Subido por</Table.Th>
                <Table.Th>Fecha</Table.Th>
                <Table.Th ta="right">Tamaño</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {versions.data.map((version) => (
                <Table.Tr key={version.number}>
                  <Table.Td>{version.number}</Table.Td>
                  <Table.Td>
                    <Anchor
                      href={documentHref(reservationId, document!.id, 'download', version.number)}
                      size="sm"
                    >
                      {version.fileName}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{version.createdByName ?? 'Sistema'}</Table.Td>
                  <Table.Td>{formatDateTime(version.createdAt)}</Table.Td>
                  <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                    {formatBytes(version.byteSize)}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : (
        <Loader role="status" aria-label="Cargando" />
      )}
    </Modal>
  );
}

/** A PDF drawn in its own opaque-origin frame; an image shown in a frame that runs nothing. */
function PreviewDialog({
  reservationId,
  document,
  onClose,
}: {
  reservationId: string;
  document: DocumentView | null;
  onClose: () => void;
}) {
  return (
    <Modal
      opened={document !== null}
      onClose={onClose}
      title={<Text fw={700}>{document?.name}</Text>}
      size="xl"
      centered
      closeButtonProps={{ 'aria-label': 'Cerrar' }}
    >
      {document ? (
        <Stack gap="xs">
          {document.current.contentType === 'application/pdf' ? (
            <PdfPreviewFrame
              title={`Vista previa de ${document.name}`}
              href={documentHref(reservationId, document.id, 'preview')}
            />
          ) : (
            <iframe
              title={`Vista previa de ${document.name}`}
              src={documentHref(reservationId, document.id, 'preview')}
              sandbox=""
              style={{ width: '100%', height: '70vh', border: '1px solid var(--mantine-color-gray-3)' }}
            />
          )}
          <Group justify="flex-end" gap="xs">
            <Button
              component="a"
              href={documentHref(reservationId, document.id, 'download')}
              variant="light"
              size="xs"
              leftSection={<IconDownload size={14} />}
            >
              Descargar
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}

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
