import {
  Alert,
  Badge,
  Button,
  FileButton,
  Group,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Tabs,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { IconFileUpload, IconLock, IconLockOpen, IconPencil, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { fractionToPercent, percentToFraction } from '../../../shared/domain/pricing';
import { UNIT_KINDS, type UnitKind, unitKindLabels } from '../../../shared/domain/stock';
import { formatDate, formatDateTime, formatDecimal, formatInteger, formatUF } from '../../../shared/format';
import type { PriceListDiff, PriceRow, UnitFields, UnitView } from '../../../shared/schemas/stock';
import { DateField } from '../../components/date-field';
import { ErrorAlert } from '../../components/error-alert';
import { FormDialog } from '../../components/form-dialog';
import { MoneyInput, PercentInput, toAmount } from '../../components/money-input';
import { api, errorMessage } from '../../lib/api';
import { notifySaved } from '../../lib/notify';
import {
  previewPriceList,
  useApplyPriceList,
  useBlockUnit,
  usePolicy,
  usePriceLists,
  useSavePolicy,
  useSaveUnit,
  useUnitGrid,
} from './api';
import { STATUS_COLORS } from './status-colors';

const SHOWN_UNITS = 100;

interface UnitFormValues {
  kind: UnitKind;
  number: string;
  floor: number | string;
  building: string;
  typology: string;
  orientation: string;
  usableArea: number | string;
  terraceArea: number | string;
  totalArea: number | string;
}

const emptyUnit: UnitFormValues = {
  kind: 'apartment',
  number: '',
  floor: '',
  building: '',
  typology: '',
  orientation: '',
  usableArea: '',
  terraceArea: '',
  totalArea: '',
};

function unitFormValues(unit: UnitView): UnitFormValues {
  return {
    kind: unit.kind,
    number: unit.number,
    floor: unit.floor ?? '',
    building: unit.building ?? '',
    typology: unit.typology ?? '',
    orientation: unit.orientation ?? '',
    usableArea: unit.usableArea === null ? '' : Number(unit.usableArea),
    terraceArea: unit.terraceArea === null ? '' : Number(unit.terraceArea),
    totalArea: unit.totalArea === null ? '' : Number(unit.totalArea),
  };
}

function unitBody(values: UnitFormValues): UnitFields {
  const area = (value: number | string) => (value === '' ? null : toAmount(value));
  return {
    kind: values.kind,
    number: values.number,
    floor: values.floor === '' ? null : values.floor,
    building: values.building || null,
    typology: values.typology || null,
    orientation: values.orientation || null,
    usableArea: area(values.usableArea),
    terraceArea: area(values.terraceArea),
    totalArea: area(values.totalArea),
  };
}

export function UnitDialog({
  projectId,
  unit,
  opened,
  onClose,
}: {
  projectId: string;
  unit: UnitView | null;
  opened: boolean;
  onClose: () => void;
}) {
  const [values, setValues] = useState<UnitFormValues>(unit ? unitFormValues(unit) : emptyUnit);
  const save = useSaveUnit(projectId);
  const fields = (save.error as { fields?: Record<string, string> } | null)?.fields ?? {};
  const set = <K extends keyof UnitFormValues>(key: K, value: UnitFormValues[K]) =>
    setValues((current) => ({ ...current, [key]: value }));
  return (
    <FormDialog
      opened={opened}
      title={unit ? `Editar ${unitKindLabels[unit.kind].toLowerCase()} ${unit.number}` : 'Nueva unidad'}
      saving={save.isPending}
      error={save.error && Object.keys(fields).length === 0 ? save.error : null}
      size="lg"
      onClose={onClose}
      onSubmit={() =>
        save.mutate(
          { id: unit?.id, version: unit?.version, values: unitBody(values) },
          {
            onSuccess: () => {
              notifySaved(unit ? 'Unidad actualizada' : 'Unidad creada');
              onClose();
            },
          },
        )
      }
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Select
          label="Tipo"
          required
          data={UNIT_KINDS.map((kind) => ({ value: kind, label: unitKindLabels[kind] }))}
          value={values.kind}
          onChange={(value) => value && set('kind', value as UnitKind)}
          allowDeselect={false}
          error={fields.kind}
        />
        <TextInput
          label="Número"
          required
          value={values.number}
          onChange={(event) => set('number', event.currentTarget.value)}
          error={fields.number}
        />
        <NumberInput
          label="Piso"
          allowDecimal={false}
          min={-10}
          max={200}
          value={values.floor}
          onChange={(value) => set('floor', value)}
          error={fields.floor}
        />
        <TextInput
          label="Torre"
          value={values.building}
          onChange={(event) => set('building', event.currentTarget.value)}
          error={fields.building}
        />
        <TextInput
          label="Tipología"
          placeholder="Por ejemplo: 2D2B"
          value={values.typology}
          onChange={(event) => set('typology', event.currentTarget.value)}
          error={fields.typology}
        />
        <TextInput
          label="Orientación"
          value={values.orientation}
          onChange={(event) => set('orientation', event.currentTarget.value)}
          error={fields.orientation}
        />
        <MoneyInput
          leftSection="m²"
          label="m² útiles"
          value={values.usableArea}
          onChange={(value) => set('usableArea', value)}
          error={fields.usableArea}
        />
        <MoneyInput
          leftSection="m²"
          label="m² terraza"
          value={values.terraceArea}
          onChange={(value) => set('terraceArea', value)}
          error={fields.terraceArea}
        />
        <MoneyInput
          leftSection="m²"
          label="m² totales"
          value={values.totalArea}
          onChange={(value) => set('totalArea', value)}
          error={fields.totalArea}
        />
      </SimpleGrid>
    </FormDialog>
  );
}

function BlockDialog({ unit, onClose }: { unit: UnitView; onClose: () => void }) {
  const [reason, setReason] = useState('');
  const block = useBlockUnit();
  const fields = (block.error as { fields?: Record<string, string> } | null)?.fields ?? {};
  return (
    <FormDialog
      opened
      title={`Bloquear ${unitKindLabels[unit.kind].toLowerCase()} ${unit.number}`}
      saving={block.isPending}
      error={block.error && !fields.reason ? block.error : null}
      submitLabel="Bloquear"
      onClose={onClose}
      onSubmit={() =>
        block.mutate(
          { id: unit.id, version: unit.version, reason },
          {
            onSuccess: () => {
              notifySaved('Unidad bloqueada');
              onClose();
            },
          },
        )
      }
    >
      <Textarea
        label="Motivo del bloqueo"
        required
        autosize
        minRows={2}
        value={reason}
        onChange={(event) => setReason(event.currentTarget.value)}
        error={fields.reason}
        data-autofocus
      />
    </FormDialog>
  );
}

function UnitsTab({ projectId }: { projectId: string }) {
  const grid = useUnitGrid(projectId, {});
  const unblock = useBlockUnit();
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<UnitView | 'new' | null>(null);
  const [blocking, setBlocking] = useState<UnitView | null>(null);
  const term = search.trim().toLowerCase();
  const matching = (grid.data?.units ?? []).filter(
    (unit) =>
      !term ||
      unit.number.toLowerCase().includes(term) ||
      (unit.typology ?? '').toLowerCase().includes(term) ||
      String(unit.floor ?? '') === term,
  );
  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap">
        <TextInput
          aria-label="Buscar unidad"
          placeholder="Buscar por número, tipología o piso"
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          w={{ base: '100%', sm: 320 }}
        />
        <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
          Nueva unidad
        </Button>
      </Group>
      <ErrorAlert error={grid.error ?? unblock.error} />
      <Table.ScrollContainer minWidth={760}>
        <Table striped highlightOnHover aria-label="Unidades del proyecto">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Tipo</Table.Th>
              <Table.Th>Número</Table.Th>
              <Table.Th>Piso</Table.Th>
              <Table.Th>Tipología</Table.Th>
              <Table.Th ta="right">m² totales</Table.Th>
              <Table.Th ta="right">Precio lista</Table.Th>
              <Table.Th>Estado</Table.Th>
              <Table.Th>Acciones</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {matching.slice(0, SHOWN_UNITS).map((unit) => (
              <Table.Tr key={unit.id}>
                <Table.Td>{unitKindLabels[unit.kind]}</Table.Td>
                <Table.Td>{unit.number}</Table.Td>
                <Table.Td>{unit.floor ?? '—'}</Table.Td>
                <Table.Td>{unit.typology ?? '—'}</Table.Td>
                <Table.Td ta="right">{unit.totalArea ? formatDecimal(unit.totalArea) : '—'}</Table.Td>
                <Table.Td ta="right">{unit.price ? formatUF(unit.price) : 'sin precio'}</Table.Td>
                <Table.Td>
                  <Badge
                    color={STATUS_COLORS[unit.status]}
                    variant="light"
                    title={unit.blockedReason ?? undefined}
                  >
                    {unit.status}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    <Button
                      size="compact-sm"
                      variant="subtle"
                      leftSection={<IconPencil size={14} />}
                      onClick={() => setEditing(unit)}
                      aria-label={`Editar ${unitKindLabels[unit.kind]} ${unit.number}`}
                    >
                      Editar
                    </Button>
                    {unit.status === 'Bloqueada' ? (
                      <Button
                        size="compact-sm"
                        variant="subtle"
                        leftSection={<IconLockOpen size={14} />}
                        onClick={() =>
                          unblock.mutate(
                            { id: unit.id, version: unit.version, reason: null },
                            { onSuccess: () => notifySaved('Unidad desbloqueada') },
                          )
                        }
                        aria-label={`Desbloquear ${unitKindLabels[unit.kind]} ${unit.number}`}
                      >
                        Desbloquear
                      </Button>
                    ) : unit.status === 'Disponible' ? (
                      <Button
                        size="compact-sm"
                        variant="subtle"
                        leftSection={<IconLock size={14} />}
                        onClick={() => setBlocking(unit)}
                        aria-label={`Bloquear ${unitKindLabels[unit.kind]} ${unit.number}`}
                      >
                        Bloquear
                      </Button>
                    ) : null}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {grid.data && grid.data.units.length === 0 ? (
        <Text c="dimmed">
          El proyecto aún no tiene unidades: sin ellas, sus reservas se ingresan con texto libre.
        </Text>
      ) : null}
      {matching.length > SHOWN_UNITS ? (
        <Text size="sm" c="dimmed">
          Se muestran {formatInteger(SHOWN_UNITS)} de {formatInteger(matching.length)} unidades: busque para
          acotar.
        </Text>
      ) : null}
      {editing ? (
        <UnitDialog
          key={editing === 'new' ? 'new' : editing.id}
          projectId={projectId}
          unit={editing === 'new' ? null : editing}
          opened
          onClose={() => setEditing(null)}
        />
      ) : null}
      {blocking ? <BlockDialog unit={blocking} onClose={() => setBlocking(null)} /> : null}
    </Stack>
  );
}

/** 'Departamento;1201;3200' lines (tab, ';' or ','), as pasted from a spreadsheet. */
function pastedRows(text: string): { rows: PriceRow[]; problems: string[] } {
  const kinds: Record<string, UnitKind> = {
    departamento: 'apartment',
    depto: 'apartment',
    estacionamiento: 'parking',
    est: 'parking',
    bodega: 'storage',
    bod: 'storage',
  };
  const rows: PriceRow[] = [];
  const problems: string[] = [];
  text.split(/\r?\n/).forEach((line, index) => {
    if (!line.trim()) return;
    const cells = line.split(/\t|;/).map((cell) => cell.trim());
    const kind = kinds[(cells[0] ?? '').toLowerCase()];
    if (!kind && index === 0) return; // a header line
    if (!kind || !cells[1] || cells[2] === undefined) {
      problems.push(
        `Línea ${index + 1}: use «Tipo;Número;Precio» (por ejemplo «Departamento;1201;3.200,50»)`,
      );
      return;
    }
    rows.push({
      kind,
      number: cells[1],
      price: toAmount(cells[2].replace(/\./g, '').replace(',', '.')) || cells[2],
    });
  });
  return { rows, problems };
}

/** The rows a price list's review shows: every change (which way it goes) and every new unit's price. */
const DIFF_ROWS_SHOWN = 20;

export function DiffSummary({ diff }: { diff: PriceListDiff }) {
  const bad = diff.unknown.length > 0 || diff.repeated.length > 0;
  const rows = [
    ...diff.changes.map((change) => ({
      ...change,
      direction: Number(change.to) < Number(change.from) ? ('down' as const) : ('up' as const),
    })),
    ...diff.newlyPriced.map((unit) => ({ ...unit, from: null, direction: 'new' as const })),
  ];
  return (
    <Alert color={bad ? 'red' : 'blue'} title={diff.summary} role="status">
      {diff.unknown.length > 0 ? (
        <Text size="sm">
          Unidades que el proyecto no tiene:{' '}
          {diff.unknown.map((unit) => `${unitKindLabels[unit.kind]} ${unit.number}`).join(', ')}. No se
          aplicará ningún precio.
        </Text>
      ) : null}
      {diff.repeated.length > 0 ? (
        <Text size="sm">
          Repetidas: {diff.repeated.map((unit) => `${unitKindLabels[unit.kind]} ${unit.number}`).join(', ')}.
        </Text>
      ) : null}
      {rows.length > 0 ? (
        <Table mt="xs" withRowBorders={false} aria-label="Precios que cambian">
          <Table.Tbody>
            {rows.slice(0, DIFF_ROWS_SHOWN).map((row) => (
              <Table.Tr key={row.unitId}>
                <Table.Td>
                  {unitKindLabels[row.kind]} {row.number}
                </Table.Td>
                <Table.Td ta="right">{row.from === null ? '—' : formatUF(row.from)}</Table.Td>
                <Table.Td>→</Table.Td>
                <Table.Td ta="right">{formatUF(row.to)}</Table.Td>
                <Table.Td>
                  <Badge
                    size="sm"
                    variant="light"
                    color={row.direction === 'down' ? 'orange' : row.direction === 'new' ? 'blue' : 'green'}
                  >
                    {row.direction === 'down' ? 'Baja' : row.direction === 'new' ? 'Nueva' : 'Sube'}
                  </Badge>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : null}
      {rows.length > DIFF_ROWS_SHOWN ? (
        <Text size="xs">y {formatInteger(rows.length - DIFF_ROWS_SHOWN)} cambios más.</Text>
      ) : null}
    </Alert>
  );
}

function PriceListTab({ projectId }: { projectId: string }) {
  const history = usePriceLists(projectId);
  const apply = useApplyPriceList(projectId);
  const [effectiveDate, setEffectiveDate] = useState<string | null>(null);
  const [note, setNote] = useState('');
  const [text, setText] = useState('');
  const [rows, setRows] = useState<PriceRow[] | null>(null);
  const [problems, setProblems] = useState<string[]>([]);
  const [diff, setDiff] = useState<PriceListDiff | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const reset = () => {
    setRows(null);
    setDiff(null);
    setProblems([]);
    setFailure(null);
  };
  const preview = async (candidate: PriceRow[]) => {
    setRows(candidate);
    setDiff(null);
    if (!effectiveDate) {
      setFailure('Ingrese la fecha desde la que rige la lista');
      return;
    }
    if (candidate.length === 0) {
      setFailure('La lista no tiene precios');
      return;
    }
    setBusy(true);
    try {
      setDiff((await previewPriceList(projectId, { effectiveDate, rows: candidate })).diff);
      setFailure(null);
    } catch (error) {
      setFailure(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };
  const readFile = async (file: File | null) => {
    if (!file) return;
    reset();
    setBusy(true);
    try {
      const bytes = new Uint8Array(await file.arrayBuffer());
      let binary = '';
      for (let i = 0; i < bytes.length; i += 0x8000)
        binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      const read = await api<{ rows: PriceRow[]; problems: string[] }>(
        `/api/stock/projects/${projectId}/price-lists/read`,
        { method: 'POST', body: { contentBase64: btoa(binary) } },
      );
      setProblems(read.problems);
      setBusy(false);
      await preview(read.rows);
    } catch (error) {
      setFailure(errorMessage(error));
      setBusy(false);
    }
  };
  const canApply = Boolean(
    diff &&
      rows &&
      effectiveDate &&
      diff.unknown.length === 0 &&
      diff.repeated.length === 0 &&
      problems.length === 0,
  );

  return (
    <Stack gap="md">
      <Paper withBorder p="md">
        <Title order={3} size="h5" mb="sm">
          Nueva lista de precios
        </Title>
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <DateField
              label="Vigente desde"
              required
              value={effectiveDate}
              onChange={(value) => {
                setEffectiveDate(value);
                setDiff(null);
              }}
            />
            <TextInput label="Nota" value={note} onChange={(event) => setNote(event.currentTarget.value)} />
          </SimpleGrid>
          <Textarea
            label="Precios"
            description="Una unidad por línea: Tipo;Número;Precio (se puede pegar desde una planilla). O cargue un archivo CSV o Excel con las columnas Tipo, Número y Precio."
            autosize
            minRows={4}
            maxRows={12}
            value={text}
            onChange={(event) => {
              setText(event.currentTarget.value);
              reset();
            }}
          />
          <Group gap="sm">
            <Button
              variant="default"
              loading={busy}
              onClick={() => {
                const parsed = pastedRows(text);
                setProblems(parsed.problems);
                void preview(parsed.rows);
              }}
            >
              Revisar diferencias
            </Button>
            <FileButton onChange={(file) => void readFile(file)} accept=".csv,.xlsx,text/csv">
              {(props) => (
                <Button
                  {...props}
                  variant="default"
                  leftSection={<IconFileUpload size={16} />}
                  loading={busy}
                >
                  Cargar archivo
                </Button>
              )}
            </FileButton>
          </Group>
          {problems.length > 0 ? (
            <Alert color="red" title="Filas que no se pudieron leer">
              {problems.map((problem) => (
                <Text key={problem} size="sm">
                  {problem}
                </Text>
              ))}
            </Alert>
          ) : null}
          <ErrorAlert error={failure ?? apply.error} />
          {diff ? <DiffSummary diff={diff} /> : null}
          {diff ? (
            <Group>
              <Button
                disabled={!canApply}
                loading={apply.isPending}
                onClick={() =>
                  rows &&
                  effectiveDate &&
                  apply.mutate(
                    { effectiveDate, note: note || null, rows },
                    {
                      onSuccess: (result) => {
                        notifySaved(`Lista de precios aplicada: ${result.diff.summary}`);
                        setText('');
                        setNote('');
                        reset();
                      },
                    },
                  )
                }
              >
                Aplicar lista
              </Button>
            </Group>
          ) : null}
        </Stack>
      </Paper>
      <Paper withBorder p="md">
        <Title order={3} size="h5" mb="sm">
          Historial de listas
        </Title>
        <ErrorAlert error={history.error} />
        <Table.ScrollContainer minWidth={560}>
          <Table striped aria-label="Historial de listas de precios">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Vigente desde</Table.Th>
                <Table.Th ta="right">Precios</Table.Th>
                <Table.Th>Nota</Table.Th>
                <Table.Th>Cargada por</Table.Th>
                <Table.Th>Cargada el</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(history.data?.rows ?? []).map((list) => (
                <Table.Tr key={list.id}>
                  <Table.Td>
                    <Group gap={6}>
                      {formatDate(list.effectiveDate)}
                      {list.isCurrent ? (
                        <Badge color="green" variant="light" size="sm">
                          Vigente
                        </Badge>
                      ) : null}
                      {list.isScheduled ? (
                        <Badge color="blue" variant="light" size="sm">
                          Programada
                        </Badge>
                      ) : null}
                    </Group>
                  </Table.Td>
                  <Table.Td ta="right">{formatInteger(list.priceCount)}</Table.Td>
                  <Table.Td>{list.note ?? '—'}</Table.Td>
                  <Table.Td>{list.createdByName ?? 'Sistema'}</Table.Td>
                  <Table.Td>{formatDateTime(list.createdAt)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {history.data && history.data.rows.length === 0 ? (
          <Text c="dimmed">Aún no hay listas de precios.</Text>
        ) : null}
      </Paper>
    </Stack>
  );
}

const POLICY_PERCENTS = [
  ['maxColumnDiscount', 'Descuento columna máximo'],
  ['maxAdditionalDiscount', 'Descuento adicional máximo'],
  ['maxOtherDiscount', 'Otro descuento máximo'],
  ['maxSubsidyFraction', 'Bono pie máximo (% del precio lista)'],
] as const;

type PolicyForm = Record<(typeof POLICY_PERCENTS)[number][0] | 'reservationAmount', number | string>;

function PolicyTab({ projectId }: { projectId: string }) {
  const policy = usePolicy(projectId);
  const save = useSavePolicy(projectId);
  const [form, setForm] = useState<PolicyForm | null>(null);
  const stored = policy.data?.policy;
  if (stored && form === null) {
    setForm({
      reservationAmount: stored.reservationAmount === null ? '' : Number(stored.reservationAmount),
      maxColumnDiscount: stored.maxColumnDiscount === null ? '' : fractionToPercent(stored.maxColumnDiscount),
      maxAdditionalDiscount:
        stored.maxAdditionalDiscount === null ? '' : fractionToPercent(stored.maxAdditionalDiscount),
      maxOtherDiscount: stored.maxOtherDiscount === null ? '' : fractionToPercent(stored.maxOtherDiscount),
      maxSubsidyFraction:
        stored.maxSubsidyFraction === null ? '' : fractionToPercent(stored.maxSubsidyFraction),
    });
  }
  if (!form || !stored) return <ErrorAlert error={policy.error} />;
  const fraction = (value: number | string) => (value === '' ? null : percentToFraction(value));
  const fields = (save.error as { fields?: Record<string, string> } | null)?.fields ?? {};
  return (
    <Paper withBorder p="md" maw={760}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate(
            {
              reservationAmount: form.reservationAmount === '' ? null : toAmount(form.reservationAmount),
              maxColumnDiscount: fraction(form.maxColumnDiscount),
              maxAdditionalDiscount: fraction(form.maxAdditionalDiscount),
              maxOtherDiscount: fraction(form.maxOtherDiscount),
              maxSubsidyFraction: fraction(form.maxSubsidyFraction),
              ...(stored.version === null ? {} : { version: stored.version }),
            },
            {
              onSuccess: () => {
                notifySaved('Política comercial guardada');
                setForm(null);
              },
            },
          );
        }}
      >
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            Una reserva que la excede se rechaza, salvo que un administrador la apruebe indicando el motivo.
            Un campo vacío no limita.
          </Text>
          <ErrorAlert error={save.error && Object.keys(fields).length === 0 ? save.error : null} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <MoneyInput
              label="Monto de reserva (mínimo, UF)"
              value={form.reservationAmount}
              onChange={(value) => setForm({ ...form, reservationAmount: value })}
              error={fields.reservationAmount}
            />
            {POLICY_PERCENTS.map(([key, label]) => (
              <PercentInput
                key={key}
                label={label}
                value={form[key]}
                onChange={(value) => setForm({ ...form, [key]: value })}
                error={fields[key]}
              />
            ))}
          </SimpleGrid>
          <Group>
            <Button type="submit" loading={save.isPending}>
              Guardar política
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

/**
 * Configuración → Proyectos → a project: its stock (issue 31, decision 0032) in three tabs for
 * administrators: 'Unidades' (create, edit, block), 'Lista de precios' (enter, paste or load a list,
 * see its differences, apply; history) and 'Política comercial'.
 */
export function ProjectStockSection({ projectId }: { projectId: string }) {
  return (
    <Paper withBorder p={{ base: 'sm', sm: 'lg' }} radius="md" mt="lg">
      <Title order={3} mb="sm">
        Stock del proyecto
      </Title>
      <Tabs defaultValue="unidades" keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="unidades">Unidades</Tabs.Tab>
          <Tabs.Tab value="precios">Lista de precios</Tabs.Tab>
          <Tabs.Tab value="politica">Política comercial</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="unidades">
          <UnitsTab projectId={projectId} />
        </Tabs.Panel>
        <Tabs.Panel value="precios">
          <PriceListTab projectId={projectId} />
        </Tabs.Panel>
        <Tabs.Panel value="politica">
          <PolicyTab projectId={projectId} />
        </Tabs.Panel>
      </Tabs>
    </Paper>
  );
}
