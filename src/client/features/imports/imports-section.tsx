import {
  Alert,
  Anchor,
  Badge,
  Box,
  Button,
  Checkbox,
  FileInput,
  Group,
  NativeSelect,
  Paper,
  Progress,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconDownload, IconUpload } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { type ErrorCode, errorCatalog, errorMessage } from '../../../shared/errors';
import { formatDateTime, formatInteger } from '../../../shared/format';
import {
  columnsOf,
  countsSentence,
  type DryRunResult,
  IMPORT_FIELDS,
  IMPORT_KIND_LABELS,
  IMPORT_KINDS,
  IMPORT_STATUS_LABELS,
  type ImportKind,
  type ImportRun,
  MAX_JOINED_COLUMNS,
  type RepeatedKeys,
  type UploadedFile,
} from '../../../shared/schemas/imports';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ErrorAlert } from '../../components/error-alert';
import { downloadOnClick } from '../../lib/download';
import { useNarrow } from '../../lib/layout';
import { notifySaved } from '../../lib/notify';
import {
  errorsHref,
  type Mapping,
  templateHref,
  useApply,
  useCancel,
  useChooseSheet,
  useDryRun,
  useRun,
  useRuns,
  useUndo,
  useUpload,
} from './api';
import { HeaderRowChoice, SkippedRowsNote } from './header-row';

/**
 * Configuración → Importar (issue 32): choose the kind and the file, the sheet and the columns, see
 * the review ('N nuevos, N actualizados, N sin cambios, N con errores' and each error), import with a
 * progress bar (cancellable), and undo a run from the list. Every rule is the server's.
 */
export default function ImportsSection() {
  const [kind, setKind] = useState<ImportKind>('clients');
  const [file, setFile] = useState<UploadedFile | null>(null);
  const [mapping, setMapping] = useState<Mapping>({});
  const [review, setReview] = useState<DryRunResult | null>(null);
  const [onlyValidRows, setOnlyValidRows] = useState(false);
  const [repeatedKeys, setRepeatedKeys] = useState<RepeatedKeys>('keepFirst');
  const [runId, setRunId] = useState<string | null>(null);
  const upload = useUpload();
  const chooseSheet = useChooseSheet();
  const dryRun = useDryRun();
  const apply = useApply();

  const start = (next: UploadedFile) => {
    setFile(next);
    setMapping(next.mapping);
    setReview(null);
    setOnlyValidRows(false);
    dryRun.reset();
    apply.reset();
  };
  const chosen = (picked: File | null) => {
    setFile(null);
    setReview(null);
    setRunId(null);
    if (picked) upload.mutate({ kind, file: picked }, { onSuccess: start });
  };
  const check = () => {
    if (!file) return;
    dryRun.mutate(
      { runId: file.runId, sheetName: file.sheetName, headerRow: file.headerRow, mapping, repeatedKeys },
      { onSuccess: setReview },
    );
  };
  const importNow = () => {
    if (!file) return;
    apply.mutate(
      {
        runId: file.runId,
        sheetName: file.sheetName,
        headerRow: file.headerRow,
        mapping,
        onlyValidRows,
        repeatedKeys,
      },
      {
        onSuccess: ({ run }) => {
          setRunId(run.id);
          setFile(null);
          setReview(null);
        },
      },
    );
  };

  return (
    <Stack gap="xl">
      <Paper withBorder p="md" radius="md">
        <Stack gap="md">
          <Title order={2} size="h4">
            Nueva importación
          </Title>
          <Group align="end" gap="md" wrap="wrap">
            <NativeSelect
              label="Tipo de datos"
              data={IMPORT_KINDS.map((value) => ({ value, label: IMPORT_KIND_LABELS[value] }))}
              value={kind}
              onChange={(event) => {
                setKind(event.currentTarget.value as ImportKind);
                setFile(null);
                setReview(null);
              }}
              w={200}
            />
            <Button
              component="a"
              href={templateHref(kind)}
              variant="light"
              leftSection={<IconDownload size={16} />}
            >
              Descargar plantilla
            </Button>
            <FileInput
              label="Archivo (.xlsx o .csv)"
              placeholder="Elegir archivo"
              accept=".xlsx,.csv,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
              leftSection={<IconUpload size={16} />}
              onChange={chosen}
              clearable
              clearButtonProps={{ 'aria-label': 'Quitar el archivo' }}
              w={280}
            />
          </Group>
          {upload.isPending && <Text c="dimmed">Leyendo el archivo...</Text>}
          <ErrorAlert error={upload.error} />
          {file && (
            <MappingStep
              file={file}
              mapping={mapping}
              onMapping={(next) => {
                setMapping(next);
                setReview(null);
              }}
              onSheet={(sheetName) =>
                chooseSheet.mutate({ runId: file.runId, sheetName }, { onSuccess: start })
              }
              onHeaderRow={(headerRow) =>
                chooseSheet.mutate(
                  { runId: file.runId, sheetName: file.sheetName, headerRow },
                  { onSuccess: start },
                )
              }
              choosing={chooseSheet.isPending}
            />
          )}
          <ErrorAlert error={chooseSheet.error ?? dryRun.error} />
          {file && (
            <Group>
              <Button onClick={check} loading={dryRun.isPending} variant={review ? 'default' : 'filled'}>
                Revisar archivo
              </Button>
              <Checkbox
                label="Rechazar todas las filas con clave repetida"
                description="Sin marcar: se importa la primera y las demás quedan como errores"
                checked={repeatedKeys === 'refuseAll'}
                onChange={(event) => {
                  setRepeatedKeys(event.currentTarget.checked ? 'refuseAll' : 'keepFirst');
                  setReview(null);
                }}
              />
            </Group>
          )}
          {file && review && (
            <ReviewStep
              runId={file.runId}
              headerRow={file.headerRow}
              repeatedKeys={repeatedKeys}
              review={review}
              onlyValidRows={onlyValidRows}
              onOnlyValidRows={setOnlyValidRows}
              onImport={importNow}
              importing={apply.isPending}
            />
          )}
          <ErrorAlert error={apply.error} />
          {runId && <RunProgress runId={runId} />}
        </Stack>
      </Paper>
      <RunsList
        onUndone={(undone) => {
          // The run's box says 'Importación terminada': gone with the run's rows.
          if (undone.id === runId) setRunId(null);
        }}
      />
    </Stack>
  );
}

function MappingStep({
  file,
  mapping,
  onMapping,
  onSheet,
  onHeaderRow,
  choosing,
}: {
  file: UploadedFile;
  mapping: Mapping;
  onMapping: (mapping: Mapping) => void;
  onSheet: (sheetName: string) => void;
  onHeaderRow: (headerRow: number) => void;
  choosing: boolean;
}) {
  const columns = [
    { value: '', label: '(sin asignar)' },
    ...file.headers.map((header, index) => ({
      value: String(index),
      label: header || `Columna ${index + 1}`,
    })),
  ];
  return (
    <Stack gap="sm">
      <Text>
        Archivo <strong>{file.fileName}</strong>
        {file.format === 'xlsx' ? ' (Excel)' : ' (CSV)'}
      </Text>
      {file.sheets.length > 1 && (
        <NativeSelect
          label="Hoja"
          data={file.sheets}
          value={file.sheetName ?? ''}
          onChange={(event) => onSheet(event.currentTarget.value)}
          w={280}
        />
      )}
      <HeaderRowChoice file={file} onChoose={onHeaderRow} disabled={choosing} />
      <Text size="sm" c="dimmed">
        Columnas del archivo para cada campo. Las reconocidas ya están asignadas; la asignación se recuerda
        para la próxima importación de este tipo.
      </Text>
      <ScrollRegion label="Asignación de columnas">
        <Table striped withTableBorder aria-label="Asignación de columnas">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Campo</Table.Th>
              <Table.Th>Columna del archivo</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {IMPORT_FIELDS[file.kind].map((field) => (
              <Table.Tr key={field.key}>
                <Table.Td>
                  {field.label}
                  {field.required && (
                    <Text span c="red" aria-label="obligatorio">
                      {' '}
                      *
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <FieldColumns
                    label={field.label}
                    joinable={field.type === 'text'}
                    columns={columns}
                    chosen={columnsOf(mapping, field.key)}
                    onChange={(chosen) =>
                      onMapping({
                        ...mapping,
                        [field.key]: chosen.length === 0 ? null : chosen.length === 1 ? chosen[0]! : chosen,
                      })
                    }
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollRegion>
    </Stack>
  );
}

/**
 * A field's columns: one, or several joined with a space ('Apellido Paterno' + 'Apellido Materno' →
 * Apellidos, issue 55). 'Unir otra columna' adds one; '(sin asignar)' on a joined one removes it.
 */
function FieldColumns({
  label,
  joinable,
  columns,
  chosen,
  onChange,
}: {
  label: string;
  /** Text fields only: a name, a surname, an address are made of columns; a RUT or a date is not. */
  joinable: boolean;
  columns: { value: string; label: string }[];
  chosen: number[];
  onChange: (chosen: number[]) => void;
}) {
  const first = chosen[0];
  const free = (own: number | undefined) =>
    columns.filter(
      (option) =>
        option.value === '' || !chosen.includes(Number(option.value)) || Number(option.value) === own,
    );
  return (
    <Stack gap={4}>
      <NativeSelect
        aria-label={`Columna para ${label}`}
        data={free(first)}
        value={first === undefined ? '' : String(first)}
        onChange={(event) => {
          const value = event.currentTarget.value;
          onChange(value === '' ? [] : [Number(value), ...chosen.slice(1)]);
        }}
      />
      {chosen.slice(1).map((index, position) => (
        <NativeSelect
          // biome-ignore lint/suspicious/noArrayIndexKey: a joined column's place is its identity
          key={position}
          aria-label={`Columna ${position + 2} para ${label}`}
          description={position === 0 ? 'Se une a la anterior con un espacio' : undefined}
          data={free(index)}
          value={String(index)}
          onChange={(event) => {
            const value = event.currentTarget.value;
            const next = [...chosen];
            if (value === '') next.splice(position + 1, 1);
            else next[position + 1] = Number(value);
            onChange(next);
          }}
        />
      ))}
      {joinable &&
        first !== undefined &&
        chosen.length < MAX_JOINED_COLUMNS &&
        free(undefined).length > 1 && (
          <Button
            size="compact-xs"
            variant="subtle"
            w="fit-content"
            aria-label={`Unir otra columna a ${label}`}
            onClick={() => {
              const next = free(undefined).find((option) => option.value !== '');
              if (next) onChange([...chosen, Number(next.value)]);
            }}
          >
            Unir otra columna
          </Button>
        )}
    </Stack>
  );
}

/**
 * A named table on a wide screen; on a phone a list of cards under the same name, one per row, so
 * nothing is cut at the screen's edge. `cells` gives a row's cells in `headers`' order.
 */
function TableOrCards<Row>({
  label,
  headers,
  rows,
  rowKey,
  cells,
  card,
}: {
  label: string;
  headers: string[];
  rows: Row[];
  rowKey: (row: Row) => string;
  cells: (row: Row) => ReactNode[];
  card: (row: Row) => ReactNode;
}) {
  const narrow = useNarrow();
  if (narrow)
    return (
      <Stack component="ul" gap="xs" aria-label={label} p={0} m={0} style={{ listStyle: 'none' }}>
        {rows.map((row) => (
          <Paper component="li" key={rowKey(row)} withBorder p="xs">
            {card(row)}
          </Paper>
        ))}
      </Stack>
    );
  return (
    <ScrollRegion label={label}>
      <Table striped withTableBorder aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            {headers.map((header) => (
              <Table.Th key={header}>{header}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={rowKey(row)}>
              {cells(row).map((cell, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a row's cells are in the headers' fixed order
                <Table.Td key={index}>{cell}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollRegion>
  );
}

/**
 * The dry run's errors: a table on a wide screen; on a phone one card per error, so the reason
 * (the longest column) is read whole instead of cut at the screen's edge.
 */
function FileErrors({ errors }: { errors: DryRunResult['errors'] }) {
  return (
    <TableOrCards
      label="Errores del archivo"
      headers={['Fila', 'Columna', 'Valor', 'Motivo']}
      rows={errors}
      rowKey={(error) => `${error.rowNumber}-${error.column}-${error.reason}`}
      cells={(error) => [error.rowNumber, error.column, error.value, error.reason]}
      card={(error) => (
        <>
          <Text size="sm" fw={600}>
            Fila {error.rowNumber} · {error.column}
          </Text>
          {error.value !== '' && (
            <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              Valor: {error.value}
            </Text>
          )}
          <Text size="sm">{error.reason}</Text>
        </>
      )}
    />
  );
}

function ReviewStep({
  runId,
  headerRow,
  repeatedKeys,
  review,
  onlyValidRows,
  onOnlyValidRows,
  onImport,
  importing,
}: {
  runId: string;
  headerRow: number;
  repeatedKeys: RepeatedKeys;
  review: DryRunResult;
  onlyValidRows: boolean;
  onOnlyValidRows: (value: boolean) => void;
  onImport: () => void;
  importing: boolean;
}) {
  const hasErrors = review.counts.errors > 0;
  const nothingToDo = review.counts.created + review.counts.updated === 0;
  return (
    <Stack gap="sm">
      <Alert color={hasErrors ? 'orange' : 'green'} title="Resultado de la revisión (no se guardó nada)">
        <Text data-testid="import-summary">{review.summary}</Text>
      </Alert>
      <SkippedRowsNote review={review} />
      {hasErrors && (
        <>
          <Group justify="space-between">
            <Text fw={600}>Errores</Text>
            <Anchor
              href={errorsHref(runId, headerRow, repeatedKeys)}
              onClick={downloadOnClick(errorsHref(runId, headerRow, repeatedKeys))}
            >
              Descargar planilla con errores
            </Anchor>
          </Group>
          <FileErrors errors={review.errors} />
          {review.moreErrors > 0 && (
            <Text size="sm" c="dimmed">
              … y {formatInteger(review.moreErrors)} errores más: la planilla con errores tiene todas las
              filas con errores.
            </Text>
          )}
          <Checkbox
            label="Importar solo filas válidas"
            checked={onlyValidRows}
            onChange={(event) => onOnlyValidRows(event.currentTarget.checked)}
          />
        </>
      )}
      <Group>
        <Button
          onClick={onImport}
          loading={importing}
          disabled={(hasErrors && !onlyValidRows) || nothingToDo}
        >
          Importar
        </Button>
      </Group>
    </Stack>
  );
}

function secondsLeft(run: ImportRun, now: number): number | null {
  if (!run.startedAt || run.processedRows === 0 || run.totalRows === 0) return null;
  const elapsed = (now - new Date(run.startedAt).getTime()) / 1000;
  const rate = run.processedRows / Math.max(elapsed, 0.001);
  return Math.max(0, Math.round((run.totalRows - run.processedRows) / rate));
}

function RunProgress({ runId }: { runId: string }) {
  const { data: run, error } = useRun(runId);
  const cancel = useCancel();
  if (error) return <ErrorAlert error={error} />;
  if (!run) return null;
  if (run.status === 'applying') {
    const percent = run.totalRows === 0 ? 0 : Math.round((run.processedRows / run.totalRows) * 100);
    const left = secondsLeft(run, Date.now());
    return (
      <Stack gap="xs">
        <Text>
          Importando: {formatInteger(run.processedRows)} de {formatInteger(run.totalRows)} filas
          {left !== null ? ` · quedan unos ${formatInteger(left)} s` : ''}
        </Text>
        <Progress value={percent} aria-label="Avance de la importación" animated />
        <Group>
          <Button
            variant="default"
            color="red"
            onClick={() => cancel.mutate(runId)}
            loading={cancel.isPending}
          >
            Cancelar importación
          </Button>
        </Group>
        <ErrorAlert error={cancel.error} />
      </Stack>
    );
  }
  if (run.status === 'applied') {
    return (
      <Alert color="green" title="Importación terminada" role="status">
        {countsSentence(run.counts)}
      </Alert>
    );
  }
  return (
    <Alert
      color="red"
      title={run.status === 'cancelled' ? 'Importación cancelada' : 'La importación falló'}
      role="alert"
    >
      No se guardó nada.
    </Alert>
  );
}

/** A run's state: its badge, and why it ended without its rows when it did. */
function RunStatus({ run }: { run: ImportRun }) {
  const color =
    run.status === 'applied'
      ? 'green'
      : run.status === 'undone'
        ? 'gray'
        : run.status === 'failed'
          ? 'red'
          : 'blue';
  return (
    <>
      {/* Never cut ('APLIC…' at 1440 px, issue 57): the badge keeps its words' width. */}
      <Badge variant="light" color={color} miw="max-content" styles={{ label: { overflow: 'visible' } }}>
        {IMPORT_STATUS_LABELS[run.status]}
      </Badge>
      {run.failure && (
        <Text size="xs" c="dimmed" mt={4} maw={320}>
          {failureText(run.failure)}
        </Text>
      )}
    </>
  );
}

const runResult = (run: ImportRun) => (run.status === 'uploaded' ? '—' : countsSentence(run.counts));

function UndoButton({ run, onUndo }: { run: ImportRun; onUndo: (run: ImportRun) => void }) {
  if (!run.canUndo) return null;
  return (
    <Button size="xs" variant="light" color="red" onClick={() => onUndo(run)}>
      Deshacer importación
    </Button>
  );
}

/** The runs: a table on a wide screen; on a phone one card per run, nothing off to the right. */
function RunsTable({ runs, onUndo }: { runs: ImportRun[]; onUndo: (run: ImportRun) => void }) {
  return (
    <TableOrCards
      label="Importaciones realizadas"
      headers={['Fecha', 'Tipo', 'Archivo', 'Usuario', 'Estado', 'Resultado', '']}
      rows={runs}
      rowKey={(run) => run.id}
      cells={(run) => [
        formatDateTime(run.createdAt),
        IMPORT_KIND_LABELS[run.kind],
        run.fileName,
        run.createdByName ?? 'Sistema',
        <RunStatus key="status" run={run} />,
        runResult(run),
        <UndoButton key="undo" run={run} onUndo={onUndo} />,
      ]}
      card={(run) => (
        <>
          <Group justify="space-between" wrap="nowrap" align="flex-start">
            <Text size="sm" fw={600}>
              {IMPORT_KIND_LABELS[run.kind]}
            </Text>
            <Text size="xs" c="dimmed">
              {formatDateTime(run.createdAt)}
            </Text>
          </Group>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {run.fileName}
          </Text>
          <Text size="xs" c="dimmed">
            {run.createdByName ?? 'Sistema'}
          </Text>
          <Box mt={4}>
            <RunStatus run={run} />
          </Box>
          <Text size="sm" mt={4}>
            {runResult(run)}
          </Text>
          {run.canUndo && (
            <Box mt="xs">
              <UndoButton run={run} onUndo={onUndo} />
            </Box>
          )}
        </>
      )}
    />
  );
}

function RunsList({ onUndone }: { onUndone: (run: ImportRun) => void }) {
  const { data: runs, error } = useRuns();
  const undo = useUndo();
  const [target, setTarget] = useState<ImportRun | null>(null);
  const [undone, setUndone] = useState<ImportRun | null>(null);
  return (
    <Stack gap="sm">
      <Title order={2} size="h4">
        Importaciones realizadas
      </Title>
      <ErrorAlert error={error} />
      {undone && (
        <Alert
          color="green"
          title="Importación deshecha"
          role="status"
          withCloseButton
          closeButtonLabel="Cerrar aviso"
          onClose={() => setUndone(null)}
        >
          Se deshizo la importación de {undone.fileName}: los registros que creó se eliminaron y los que
          modificó volvieron a como estaban.
        </Alert>
      )}
      {runs && runs.length === 0 && <Text c="dimmed">Aún no hay importaciones.</Text>}
      {runs && runs.length > 0 && <RunsTable runs={runs} onUndo={setTarget} />}
      <ConfirmDialog
        opened={target !== null}
        title="Deshacer importación"
        confirmLabel="Deshacer importación"
        pendingLabel="Deshaciendo..."
        loading={undo.isPending}
        error={undo.error}
        onConfirm={() =>
          target &&
          undo.mutate(target.id, {
            onSuccess: () => {
              setUndone(target);
              onUndone(target);
              setTarget(null);
              notifySaved('Importación deshecha');
            },
          })
        }
        onClose={() => {
          setTarget(null);
          undo.reset();
        }}
      >
        ¿Deshacer la importación de {target?.fileName}? Se eliminan los registros que creó y se restauran los
        que modificó, tal como estaban.
      </ConfirmDialog>
    </Stack>
  );
}

/** A table wider than the screen scrolls sideways in a region the keyboard can reach. */
function ScrollRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    // Reachable by keyboard: a region that scrolls must be (axe: scrollable-region-focusable).
    <Box role="region" aria-label={label} tabIndex={0} style={{ overflowX: 'auto' }}>
      {children}
    </Box>
  );
}

/**
 * Why a run ended without its rows, in words: the failure's code (the catalogue's message) and what
 * its rollback could not undo (the records changed since, or that the rollback itself failed).
 */
function failureText(failure: string): string {
  const [code = '', ...rest] = failure.split(': ');
  const left = rest.join(': ');
  if (left === 'IMPORT_UNDO_FAILED')
    return 'La importación no se completó y no se pudo deshacer todo lo escrito: revise el Historial.';
  if (left)
    return `La importación no se completó. Se deshizo todo salvo estos registros, que cambiaron después: ${left}.`;
  return code in errorCatalog ? errorMessage(code as ErrorCode) : 'La importación no se completó.';
}
