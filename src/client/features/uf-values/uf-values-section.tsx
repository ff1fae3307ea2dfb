import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Checkbox,
  FileButton,
  Group,
  List,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconChevronLeft, IconChevronRight, IconFileUpload, IconPencil, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { MONTH_NAMES, UF_MISSING_LABEL, UF_SOURCE_LABELS } from '../../../shared/domain/uf';
import { formatDate, formatDateTime, formatUfValue, santiagoDateOf } from '../../../shared/format';
import type { UfImportResult, UfValueView } from '../../../shared/schemas/uf-values';
import { PageLoader } from '../../app/shell/app-layout';
import { ErrorAlert } from '../../components/error-alert';
import { FormDialog } from '../../components/form-dialog';
import { ApiError, errorMessage } from '../../lib/api';
import { notifyError, notifySaved } from '../../lib/notify';
import { base64Of, useFetchUfNow, useImportUfValues, useSaveUfDay, useUfAutomatic, useUfMonth } from './api';

const MONTH_PARAM = 'mes';

function shiftMonth(month: string, by: number): string {
  const [year, index] = month.split('-').map(Number);
  const shifted = new Date(Date.UTC(year!, index! - 1 + by, 1));
  return shifted.toISOString().slice(0, 7);
}

function monthTitle(month: string): string {
  const [year, index] = month.split('-').map(Number);
  const name = MONTH_NAMES[index! - 1]!;
  return `${name.charAt(0).toUpperCase()}${name.slice(1)} ${year}`;
}

/**
 * Configuración → 'Valores UF' (issue 33, decision 0034): a month's days with their value and where
 * it came from; administrators add or correct a day and import the published table. A day without a
 * value reads 'Valor UF no disponible'.
 */
export function UfValuesSection() {
  const [params, setParams] = useSearchParams();
  const requested = params.get(MONTH_PARAM);
  const month =
    requested && /^\d{4}-(0[1-9]|1[0-2])$/.test(requested)
      ? requested
      : santiagoDateOf(new Date()).slice(0, 7);
  const values = useUfMonth(month);
  const [editing, setEditing] = useState<UfValueView | null>(null);
  const goTo = (next: string) =>
    setParams((current) => {
      const copy = new URLSearchParams(current);
      copy.set(MONTH_PARAM, next);
      return copy;
    });

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <div>
          <Title order={3}>Valores UF</Title>
          <Text size="sm" c="dimmed" maw={640}>
            El valor en pesos de una UF para cada día, con su origen. Se publican alrededor del día 9 para el
            período del 10 al 9 del mes siguiente; un día sin valor se muestra como «{UF_MISSING_LABEL}».
          </Text>
        </div>
        {values.data?.canManage ? <ImportButton /> : null}
      </Group>
      {values.data?.canManage ? <AutomaticFetch /> : null}
      <Group gap="xs" wrap="nowrap">
        <ActionIcon
          variant="default"
          size="lg"
          aria-label="Mes anterior"
          onClick={() => goTo(shiftMonth(month, -1))}
        >
          <IconChevronLeft size={18} />
        </ActionIcon>
        <Title order={4} miw={170} ta="center" data-testid="uf-month">
          {monthTitle(month)}
        </Title>
        <ActionIcon
          variant="default"
          size="lg"
          aria-label="Mes siguiente"
          onClick={() => goTo(shiftMonth(month, 1))}
        >
          <IconChevronRight size={18} />
        </ActionIcon>
      </Group>
      {values.isPending ? (
        <PageLoader />
      ) : values.isError ? (
        <ErrorAlert error={values.error} title="No se pudieron cargar los valores UF" />
      ) : (
        <Paper withBorder radius="md">
          <Table.ScrollContainer minWidth={360}>
            <Table
              striped
              highlightOnHover
              verticalSpacing={6}
              aria-label={`Valores UF de ${monthTitle(month)}`}
            >
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Fecha</Table.Th>
                  <Table.Th ta="right">Valor UF</Table.Th>
                  <Table.Th visibleFrom="sm">Origen</Table.Th>
                  <Table.Th visibleFrom="md">Última modificación</Table.Th>
                  {values.data.canManage ? (
                    <Table.Th>
                      <VisuallyHidden>Acciones</VisuallyHidden>
                    </Table.Th>
                  ) : null}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {values.data.days.map((day) => (
                  <Table.Tr key={day.date} data-testid={`uf-day-${day.date}`}>
                    <Table.Td>{formatDate(day.date)}</Table.Td>
                    <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                      {day.value === null ? (
                        <Text size="sm" c="dimmed" fs="italic">
                          {UF_MISSING_LABEL}
                        </Text>
                      ) : (
                        formatUfValue(day.value)
                      )}
                    </Table.Td>
                    <Table.Td visibleFrom="sm">
                      {day.source ? (
                        <Badge variant="light" color={day.source === 'user' ? 'blue' : 'gray'}>
                          {UF_SOURCE_LABELS[day.source]}
                        </Badge>
                      ) : null}
                    </Table.Td>
                    <Table.Td visibleFrom="md">
                      <Text size="xs" c="dimmed">
                        {day.updatedAt
                          ? `${formatDateTime(day.updatedAt)} · ${day.updatedByName ?? 'Sistema'}`
                          : ''}
                      </Text>
                    </Table.Td>
                    {values.data.canManage ? (
                      <Table.Td ta="right">
                        <ActionIcon
                          variant="subtle"
                          aria-label={`${day.value === null ? 'Agregar' : 'Corregir'} el valor del ${formatDate(day.date)}`}
                          onClick={() => setEditing(day)}
                        >
                          {day.value === null ? <IconPlus size={16} /> : <IconPencil size={16} />}
                        </ActionIcon>
                      </Table.Td>
                    ) : null}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Paper>
      )}
      {editing ? <UfDayDialog day={editing} onClose={() => setEditing(null)} /> : null}
    </Stack>
  );
}

/** Adds or corrects one day; a value more than 1 % from its neighbours is saved only once confirmed. */
function UfDayDialog({ day, onClose }: { day: UfValueView; onClose: () => void }) {
  const save = useSaveUfDay();
  const [value, setValue] = useState(day.value === null ? '' : formatUfValue(day.value).replace('$ ', ''));
  const [warning, setWarning] = useState<string | null>(null);
  const [confirmed, setConfirmed] = useState(false);
  const submit = () => {
    save.mutate(
      {
        date: day.date,
        value,
        ...(day.version === null ? {} : { version: day.version }),
        confirmJump: confirmed,
      },
      {
        onSuccess: () => {
          notifySaved(`Valor UF del ${formatDate(day.date)} guardado`);
          onClose();
        },
        onError: (error) => {
          if (error instanceof ApiError && error.code === 'UF_CONFIRMATION_REQUIRED')
            setWarning(error.message);
        },
      },
    );
  };
  const refusal =
    save.error instanceof ApiError && save.error.code === 'UF_CONFIRMATION_REQUIRED' ? null : save.error;
  return (
    <FormDialog
      opened
      title={`${day.value === null ? 'Agregar' : 'Corregir'} valor UF del ${formatDate(day.date)}`}
      saving={save.isPending}
      error={refusal}
      onSubmit={submit}
      onClose={onClose}
    >
      <TextInput
        label="Valor UF (pesos)"
        description="Con dos decimales, por ejemplo 39.902,60"
        value={value}
        onChange={(event) => {
          setValue(event.currentTarget.value);
          setWarning(null);
          setConfirmed(false);
        }}
        inputMode="decimal"
        required
        data-autofocus
        error={save.error instanceof ApiError ? save.error.fields.value : undefined}
      />
      {warning ? (
        <Alert color="orange" title="Valor inusual">
          <Text size="sm">{warning}</Text>
          <Checkbox
            mt="sm"
            label="Confirmo este valor"
            checked={confirmed}
            onChange={(event) => setConfirmed(event.currentTarget.checked)}
          />
        </Alert>
      ) : null}
    </FormDialog>
  );
}

/** Picks a CSV or XLSX file, previews what it changes, and imports it once confirmed. */
function ImportButton() {
  const importer = useImportUfValues();
  const [file, setFile] = useState<{ name: string; content: string } | null>(null);
  const [preview, setPreview] = useState<UfImportResult | null>(null);
  const [confirmed, setConfirmed] = useState(false);
  const close = () => {
    setFile(null);
    setPreview(null);
    setConfirmed(false);
    importer.reset();
  };
  const pick = async (picked: File | null) => {
    if (!picked) return;
    const chosen = { name: picked.name, content: await base64Of(picked) };
    setFile(chosen);
    importer.mutate(
      { fileName: chosen.name, content: chosen.content },
      {
        onSuccess: setPreview,
        onError: (error) => {
          notifyError(errorMessage(error));
          setFile(null);
        },
      },
    );
  };
  const apply = () => {
    if (!file) return;
    importer.mutate(
      { fileName: file.name, content: file.content, apply: true, confirmWarnings: confirmed },
      {
        onSuccess: (result) => {
          notifySaved(`Valores UF importados: ${result.added} nuevos, ${result.changed} corregidos`);
          close();
        },
      },
    );
  };
  const mustConfirm = (preview?.warnings.length ?? 0) > 0;
  return (
    <>
      <FileButton
        onChange={(picked) => void pick(picked)}
        accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
      >
        {(props) => (
          <Button
            {...props}
            leftSection={<IconFileUpload size={16} />}
            loading={importer.isPending && !preview}
          >
            Importar tabla
          </Button>
        )}
      </FileButton>
      <FormDialog
        opened={preview !== null}
        title="Importar valores UF"
        saving={importer.isPending}
        error={importer.error}
        submitLabel="Importar"
        onSubmit={() => {
          if (!mustConfirm || confirmed) apply();
        }}
        onClose={close}
        size="lg"
      >
        {preview ? (
          <Stack gap="xs" data-testid="uf-import-preview">
            <Text size="sm">
              {file?.name}: {preview.total} días, del {formatDate(preview.firstDate)} al{' '}
              {formatDate(preview.lastDate)}.
            </Text>
            <Text size="sm">
              {preview.added} nuevos · {preview.changed} cambian · {preview.unchanged} sin cambios
            </Text>
            {mustConfirm ? (
              <Alert color="orange" title="Revise antes de importar">
                <List size="sm" spacing={2}>
                  {preview.warnings.map((warning) => (
                    <List.Item key={warning}>{warning}</List.Item>
                  ))}
                </List>
                <Checkbox
                  mt="sm"
                  label="Confirmo los valores señalados"
                  checked={confirmed}
                  onChange={(event) => setConfirmed(event.currentTarget.checked)}
                />
              </Alert>
            ) : null}
          </Stack>
        ) : null}
      </FormDialog>
    </>
  );
}

/**
 * The daily fetch from the CMF when the server has an API key (decision 0034): its last attempt —
 * what it saved, or why it saved nothing — and 'Consultar ahora'. Off, it says how to turn it on.
 */
function AutomaticFetch() {
  const automatic = useUfAutomatic(true);
  const fetchNow = useFetchUfNow();
  if (!automatic.data) return null;
  const { enabled, source, last } = automatic.data;
  if (!enabled)
    return (
      <Text size="sm" c="dimmed">
        Consulta automática desactivada: el servidor la hace cada día cuando tiene una clave de la API de la
        CMF (UF_API_KEY).
      </Text>
    );
  return (
    <Paper withBorder p="sm" radius="md">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Stack gap={2}>
          <Text size="sm" fw={600}>
            Consulta automática ({source})
          </Text>
          <Text size="sm" c={last?.status === 'failed' ? 'red.8' : 'dimmed'} data-testid="uf-automatic-last">
            {last === null
              ? 'Aún no hay consultas.'
              : last.status === 'saved'
                ? `Última consulta: ${formatDateTime(last.attemptedAt)} · ${last.received} valores recibidos, ${last.added} nuevos.`
                : `Última consulta: ${formatDateTime(last.attemptedAt)} · no se guardó nada: ${last.failure}`}
          </Text>
        </Stack>
        <Button
          variant="light"
          size="xs"
          loading={fetchNow.isPending}
          onClick={() =>
            fetchNow.mutate(undefined, {
              onSuccess: (attempt) =>
                attempt.status === 'saved'
                  ? notifySaved(`Valores UF consultados: ${attempt.added} nuevos`)
                  : notifyError(attempt.failure ?? 'La consulta no guardó nada'),
              onError: (error) => notifyError(errorMessage(error)),
            })
          }
        >
          Consultar ahora
        </Button>
      </Group>
    </Paper>
  );
}
