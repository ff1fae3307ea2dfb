// The dialogs of a reservation's Documentos (documents-page.tsx): upload, replace, rename, versions
// and preview.
import {
  Anchor,
  Button,
  FileInput,
  Group,
  Loader,
  Modal,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { formatBytes, formatDateTime } from '../../../shared/format';
import { DOCUMENT_ACCEPT, DOCUMENT_MAX_BYTES, type DocumentView } from '../../../shared/schemas/documents';
import { ErrorAlert } from '../../components/error-alert';
import { FormDialog } from '../../components/form-dialog';
import { notifySaved } from '../../lib/notify';
import {
  documentHref,
  useDocumentVersions,
  useRenameDocument,
  useReplaceDocument,
  useUploadDocument,
} from './api';
import { PdfPreviewFrame } from './pdf-preview-frame';

const TOO_LARGE = 'El archivo supera el máximo de 20 MB: no se guardó. Reduzca su tamaño o divídalo.';

/** 'Subir documento': a type and a file (the server judges the bytes; 20 MB at most). */
export function UploadDialog({
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

export function ReplaceDialog({
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

export function RenameDialog({
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

export function VersionsDialog({
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
export function PreviewDialog({
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
