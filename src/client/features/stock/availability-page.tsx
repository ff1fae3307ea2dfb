import {
  Anchor,
  Badge,
  Box,
  Group,
  Paper,
  Popover,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import {
  UNIT_KINDS,
  UNIT_STATUSES,
  type UnitKind,
  type UnitStatus,
  unitKindLabels,
} from '../../../shared/domain/stock';
import { formatDecimal, formatInteger, formatUF } from '../../../shared/format';
import { can } from '../../../shared/permissions';
import type { UnitGridQuery, UnitView } from '../../../shared/schemas/stock';
import { paths } from '../../app/paths';
import { ErrorAlert } from '../../components/error-alert';
import { ExportButtons } from '../../components/export-buttons';
import { FilterBar } from '../../components/filter-bar';
import { PageHeader } from '../../components/page-header';
import { exportHref } from '../../lib/api';
import { useNarrow } from '../../lib/layout';
import { useCurrentUser } from '../../lib/session';
import { useStockProjects, useUnitGrid } from './api';
import { STATUS_COLORS } from './status-colors';

const FLOORLESS = 'Sin piso';

function floorLabel(floor: number | null) {
  if (floor === null) return FLOORLESS;
  return floor < 0 ? `Subterráneo ${-floor}` : `Piso ${floor}`;
}

/** The units by floor, highest floor first (as a building is drawn). */
function byFloor(units: UnitView[]): [string, UnitView[]][] {
  const floors = new Map<number | null, UnitView[]>();
  for (const unit of units) {
    const list = floors.get(unit.floor) ?? [];
    list.push(unit);
    floors.set(unit.floor, list);
  }
  return [...floors.entries()]
    .sort(([a], [b]) => (b ?? -Infinity) - (a ?? -Infinity))
    .map(([floor, list]) => [floorLabel(floor), list]);
}

function UnitDetails({ unit }: { unit: UnitView }) {
  return (
    <Stack gap={4}>
      <Text fw={600}>
        {unitKindLabels[unit.kind]} {unit.number}
      </Text>
      <Badge color={STATUS_COLORS[unit.status]} variant="light">
        {unit.status}
      </Badge>
      <Text size="sm">Precio lista: {unit.price ? formatUF(unit.price) : 'sin precio'}</Text>
      {unit.typology ? <Text size="sm">Tipología: {unit.typology}</Text> : null}
      {unit.orientation ? <Text size="sm">Orientación: {unit.orientation}</Text> : null}
      {unit.totalArea ? <Text size="sm">Superficie total: {formatDecimal(unit.totalArea)} m²</Text> : null}
      {unit.blockedReason ? <Text size="sm">Motivo del bloqueo: {unit.blockedReason}</Text> : null}
      {unit.reservation ? (
        <>
          <Text size="sm">Reserva N° {unit.reservation.reservationNumber}</Text>
          <Text size="sm">Cliente: {unit.reservation.clientName}</Text>
          <Text size="sm">Vendedor: {unit.reservation.sellerName ?? 'sin vendedor'}</Text>
          {unit.reservation.flowId ? (
            <Anchor component={Link} to={paths.reservationFlow(unit.reservation.flowId)} size="sm">
              Ver flujo de la reserva
            </Anchor>
          ) : null}
        </>
      ) : null}
    </Stack>
  );
}

/** One unit of the grid: its number in its status's colour; hover or tap shows its details. */
function UnitCell({
  unit,
  opened,
  onOpen,
  onClose,
}: {
  unit: UnitView;
  opened: boolean;
  onOpen: () => void;
  onClose: () => void;
}) {
  const color = STATUS_COLORS[unit.status];
  return (
    <Popover
      opened={opened}
      onChange={(next) => (next ? onOpen() : onClose())}
      withArrow
      shadow="md"
      width={260}
    >
      <Popover.Target>
        <UnstyledButton
          // Hovering opens it already: a click (or a tap) keeps it open; Escape or a click elsewhere closes it.
          onClick={onOpen}
          onMouseEnter={onOpen}
          data-status={unit.status}
          style={{
            minWidth: 64,
            padding: '6px 8px',
            borderRadius: 6,
            background: `var(--mantine-color-${color}-light)`,
            color: `var(--mantine-color-${color}-light-color)`,
            border: `1px solid var(--mantine-color-${color}-light-color)`,
            textAlign: 'center',
          }}
        >
          {/* Its name is its text: kind (for readers), number, second line, status (for readers). */}
          <VisuallyHidden>{unitKindLabels[unit.kind]} </VisuallyHidden>
          <Text size="sm" fw={600} lh={1.2}>
            {unit.number}
          </Text>
          <Text size="xs" lh={1.2}>
            {unit.kind === 'apartment' ? (unit.typology ?? '—') : unitKindLabels[unit.kind].slice(0, 6)}
          </Text>
          <VisuallyHidden>: {unit.status}</VisuallyHidden>
        </UnstyledButton>
      </Popover.Target>
      <Popover.Dropdown onMouseLeave={onClose}>
        <UnitDetails unit={unit} />
      </Popover.Dropdown>
    </Popover>
  );
}

/**
 * /disponibilidad 'Disponibilidad' (issue 31, decision 0032), for every user: a project's units by
 * floor, coloured by status (derived by the server), with counts per status and typology; hovering
 * or tapping a unit shows its price and, when taken, its reservation, client, seller and flow. On a
 * phone, a list grouped by floor. Live: any flow change refreshes it (notifications/api.ts).
 */
export default function AvailabilityPage() {
  const user = useCurrentUser();
  const [params, setParams] = useSearchParams();
  const narrow = useNarrow();
  const projects = useStockProjects();
  const withUnits = projects.data?.projects.filter((project) => project.units > 0) ?? [];
  const projectId = params.get('proyecto') ?? withUnits[0]?.id ?? null;
  const query: UnitGridQuery = {
    kind: (params.get('tipo') as UnitKind | null) ?? undefined,
    typology: params.get('tipologia') ?? undefined,
    status: (params.get('estado') as UnitStatus | null) ?? undefined,
  };
  const grid = useUnitGrid(projectId, query);
  const [openId, setOpenId] = useState<string | null>(null);
  const floors = useMemo(() => byFloor(grid.data?.units ?? []), [grid.data]);

  const setParam = (name: string, value: string | null) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace: true });
  };
  const activeFilters = ['tipo', 'tipologia', 'estado'].filter((name) => params.get(name)).length;
  const clearFilters = () => {
    const next = new URLSearchParams(params);
    for (const name of ['tipo', 'tipologia', 'estado']) next.delete(name);
    setParams(next, { replace: true });
  };
  const counts = grid.data?.counts;

  return (
    <>
      <PageHeader
        title="Disponibilidad"
        description={
          grid.data
            ? `${grid.data.project.name} · ${grid.data.project.stage}: sus unidades por piso, según su estado comercial.`
            : 'Las unidades de cada proyecto por piso, según su estado comercial.'
        }
        actions={
          projectId ? (
            <ExportButtons
              hrefOf={(format) => exportHref(`/api/stock/projects/${projectId}/units`, { ...query }, format)}
              disabled={!grid.data?.units.length}
              allowed={can(user, 'reports.export')}
            />
          ) : null
        }
      />
      <ErrorAlert error={projects.error ?? grid.error} />
      <Stack gap="md">
        <FilterBar activeCount={activeFilters} onClear={clearFilters}>
          <Select
            label="Proyecto"
            placeholder="Seleccione un proyecto"
            data={(projects.data?.projects ?? []).map((project) => ({
              value: project.id,
              label: `${project.name} · ${project.stage} (${formatInteger(project.units)} unidades)`,
            }))}
            value={projectId}
            onChange={(value) => setParam('proyecto', value)}
            searchable
            nothingFoundMessage="Ningún proyecto con ese nombre"
            w={narrow ? '100%' : 320}
            allowDeselect={false}
          />
          <Select
            label="Tipo"
            placeholder="Todos"
            data={UNIT_KINDS.map((kind) => ({ value: kind, label: unitKindLabels[kind] }))}
            value={query.kind ?? null}
            onChange={(value) => setParam('tipo', value)}
            clearable
            w={narrow ? '100%' : 180}
          />
          <Select
            label="Tipología"
            placeholder="Todas"
            data={grid.data?.typologies ?? []}
            value={query.typology ?? null}
            onChange={(value) => setParam('tipologia', value)}
            clearable
            w={narrow ? '100%' : 150}
          />
          <Select
            label="Estado"
            placeholder="Todos"
            data={[...UNIT_STATUSES]}
            value={query.status ?? null}
            onChange={(value) => setParam('estado', value)}
            clearable
            w={narrow ? '100%' : 160}
          />
        </FilterBar>

        {projects.data && withUnits.length === 0 ? (
          <Text c="dimmed">
            Ningún proyecto tiene unidades cargadas. Un administrador las carga en Configuración → Proyectos.
          </Text>
        ) : null}

        {counts ? (
          <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="sm">
            <Paper withBorder p="sm">
              <Text size="xs" c="dimmed">
                Total
              </Text>
              <Text fw={700} size="lg">
                {formatInteger(counts.total)}
              </Text>
            </Paper>
            {UNIT_STATUSES.map((status) => (
              <Paper key={status} withBorder p="sm">
                <Badge color={STATUS_COLORS[status]} variant="light">
                  {status}
                </Badge>
                <Text fw={700} size="lg" data-testid={`count-${status}`}>
                  {formatInteger(counts.byStatus[status] ?? 0)}
                </Text>
              </Paper>
            ))}
          </SimpleGrid>
        ) : null}

        {counts && counts.byTypology.length > 0 ? (
          <Paper withBorder p="sm">
            <Title order={3} size="h5" mb="xs">
              Departamentos por tipología
            </Title>
            <Table.ScrollContainer minWidth={300}>
              <Table striped withRowBorders={false}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Tipología</Table.Th>
                    <Table.Th ta="right">Total</Table.Th>
                    <Table.Th ta="right">Disponibles</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {counts.byTypology.map((row) => (
                    <Table.Tr key={row.typology ?? '—'}>
                      <Table.Td>{row.typology ?? 'Sin tipología'}</Table.Td>
                      <Table.Td ta="right">{formatInteger(row.total)}</Table.Td>
                      <Table.Td ta="right">{formatInteger(row.available)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Paper>
        ) : null}

        {grid.data && grid.data.units.length === 0 && counts && counts.total > 0 ? (
          <Text c="dimmed">Ninguna unidad con estos filtros.</Text>
        ) : null}

        {narrow ? (
          <Stack gap="sm" aria-label="Unidades por piso">
            {floors.map(([floor, units]) => (
              <Paper key={floor} withBorder p="sm">
                <Title order={3} size="h5" mb="xs">
                  {floor}
                </Title>
                <Stack gap={6}>
                  {units.map((unit) => (
                    <Popover key={unit.id} withArrow shadow="md" width={260}>
                      <Popover.Target>
                        <UnstyledButton data-status={unit.status}>
                          <Group justify="space-between" wrap="nowrap">
                            <Box>
                              <Text size="sm" fw={600}>
                                {unitKindLabels[unit.kind]} {unit.number}
                              </Text>
                              <Text size="xs" c="dimmed">
                                {[unit.typology, unit.price ? formatUF(unit.price) : 'sin precio']
                                  .filter(Boolean)
                                  .join(' · ')}
                              </Text>
                            </Box>
                            <Badge color={STATUS_COLORS[unit.status]} variant="light" miw="max-content">
                              {unit.status}
                            </Badge>
                          </Group>
                        </UnstyledButton>
                      </Popover.Target>
                      <Popover.Dropdown>
                        <UnitDetails unit={unit} />
                      </Popover.Dropdown>
                    </Popover>
                  ))}
                </Stack>
              </Paper>
            ))}
          </Stack>
        ) : (
          <Paper withBorder p="sm" onMouseLeave={() => setOpenId(null)}>
            <Stack gap={6} aria-label="Unidades por piso">
              {floors.map(([floor, units]) => (
                <Group key={floor} gap={6} wrap="nowrap" align="stretch">
                  <Text size="sm" fw={600} w={110} style={{ flexShrink: 0, alignSelf: 'center' }}>
                    {floor}
                  </Text>
                  <Group gap={6}>
                    {units.map((unit) => (
                      <UnitCell
                        key={unit.id}
                        unit={unit}
                        opened={openId === unit.id}
                        onOpen={() => setOpenId(unit.id)}
                        onClose={() => setOpenId((current) => (current === unit.id ? null : current))}
                      />
                    ))}
                  </Group>
                </Group>
              ))}
            </Stack>
          </Paper>
        )}
      </Stack>
    </>
  );
}
