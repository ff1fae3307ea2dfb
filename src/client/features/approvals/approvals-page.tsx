import { Alert, Button, Checkbox, List, Select, Stack, Text, VisuallyHidden } from '@mantine/core';
import { IconAlertTriangle, IconChecks } from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { formatPercent, formatRut, formatUF } from '../../../shared/format';
import { can } from '../../../shared/permissions';
import {
  ALL_APPROVALS,
  type ApprovalListRow,
  type BulkApproveResult,
  DEFAULT_APPROVAL,
} from '../../../shared/schemas/approvals';
import { paths } from '../../app/paths';
import { ErrorAlert } from '../../components/error-alert';
import { ExportButtons } from '../../components/export-buttons';
import { FilterBar } from '../../components/filter-bar';
import { PageHeader } from '../../components/page-header';
import { SearchInput } from '../../components/search-input';
import { type DataTableColumn, ServerTable } from '../../components/server-table';
import { exportHref } from '../../lib/api';
import { useListParams } from '../../lib/list-params';
import { notifySaved } from '../../lib/notify';
import { useCurrentUser } from '../../lib/session';
import { useApprovalKinds, useApprovalList, useApproveMany } from './api';
import { ApproveDialog } from './approve-dialog';

export const EMPTY_TEXT = 'No hay aprobaciones pendientes asignadas a su usuario';

/** 'Pago 1 · 50 %' / 'Pago 2 · 50 %' / 'Pago único'. */
export function paymentShareText(
  row: Pick<ApprovalListRow, 'isSecondPayment' | 'paymentPercentage'>,
): string {
  if (row.paymentPercentage === 100 && !row.isSecondPayment) return 'Pago único';
  return `${row.isSecondPayment ? 'Pago 2' : 'Pago 1'} · ${formatPercent(row.paymentPercentage)}`;
}

/** Days waiting, with the days late in red when past the task's deadline. */
export function DaysPending({
  days,
  late,
  align = 'flex-end',
}: {
  days: number | null;
  late: number;
  align?: 'flex-start' | 'flex-end';
}) {
  if (days === null) return <Text size="sm">—</Text>;
  return (
    <Stack gap={0} align={align}>
      <Text size="sm">{days === 1 ? '1 día' : `${days} días`}</Text>
      {late > 0 ? (
        <Text size="xs" c="red.8" fw={500}>
          {late === 1 ? '1 día de atraso' : `${late} días de atraso`}
        </Text>
      ) : null}
    </Stack>
  );
}

/** What a bulk approval did, when something was not approved (already done, or refused and why). */
function BulkReport({
  report,
  rows,
  onClose,
}: {
  report: BulkApproveResult;
  rows: Map<string, ApprovalListRow>;
  onClose: () => void;
}) {
  const failed = report.results.filter((result) => result.outcome === 'failed');
  if (failed.length === 0 && report.alreadyCompleted === 0) return null;
  const nameOf = (taskId: string) => {
    const row = rows.get(taskId);
    return row ? `Reserva N° ${row.reservationNumber} (${row.taskName})` : 'Una aprobación';
  };
  return (
    <Alert
      color="yellow"
      icon={<IconAlertTriangle size={18} />}
      title={`Aprobadas: ${report.approved} de ${report.results.length}`}
      withCloseButton
      closeButtonLabel="Cerrar aviso"
      onClose={onClose}
      role="status"
    >
      <List size="sm" spacing={4}>
        {report.alreadyCompleted > 0 ? (
          <List.Item>
            {report.alreadyCompleted === 1
              ? '1 ya estaba aprobada por otra persona.'
              : `${report.alreadyCompleted} ya estaban aprobadas por otra persona.`}
          </List.Item>
        ) : null}
        {failed.map((result) => (
          <List.Item key={result.taskId}>
            {nameOf(result.taskId)}: {'message' in result ? result.message : ''}
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}

/**
 * /informes/aprobacion-liquidaciones 'Aprobación de Liquidaciones' (spec part 2 §2): the signed-in
 * user's open approvals — 'VB Jefe Inversiones' unless another approval of the chain (or all) is
 * chosen — searched, paged on the server; a checkbox per row, 'Seleccionar todas', and 'Aprobar
 * Seleccionados (n)'. A row opens the detail.
 */
export default function ApprovalsPage() {
  const user = useCurrentUser();
  const navigate = useNavigate();
  const list = useListParams({ filters: ['aprobacion'] });
  const approval = list.filters.aprobacion ?? DEFAULT_APPROVAL;
  const approvals = useApprovalList({ ...list.query, approval });
  const kinds = useApprovalKinds();
  const approveMany = useApproveMany();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [report, setReport] = useState<BulkApproveResult | null>(null);
  const [reportRows, setReportRows] = useState<Map<string, ApprovalListRow>>(new Map());

  const rows = approvals.data?.rows;
  const rowsById = useMemo(() => new Map((rows ?? []).map((row) => [row.taskId, row])), [rows]);
  // The selection is of the rows shown: a new page, search or filter keeps only those still listed.
  useEffect(() => {
    setSelected((current) => {
      const kept = [...current].filter((id) => rowsById.has(id));
      return kept.length === current.size ? current : new Set(kept);
    });
  }, [rowsById]);

  const toggle = (taskId: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(taskId)) next.delete(taskId);
      else next.add(taskId);
      return next;
    });
  const allSelected = rowsById.size > 0 && selected.size === rowsById.size;

  const approveSelected = () => {
    if (selected.size === 0 || approveMany.isPending) return;
    const chosen = new Map([...selected].map((id) => [id, rowsById.get(id)!]));
    setReport(null);
    approveMany.mutate([...selected], {
      onSuccess: (result) => {
        if (result.approved > 0)
          notifySaved(
            result.approved === 1 ? '1 aprobación aprobada' : `${result.approved} aprobaciones aprobadas`,
          );
        setReport({ ...result });
        setReportRows(chosen);
        setSelected(new Set());
        setConfirming(false);
      },
    });
  };
  // Asked first when the server says this user could not take an approval back.
  const [confirming, setConfirming] = useState(false);
  const askOrApprove = () => {
    if (selected.size === 0 || approveMany.isPending) return;
    approveMany.reset();
    if (approvals.data?.isApprovalFinal ?? true) setConfirming(true);
    else approveSelected();
  };
  const approvalChoices = [
    ...(kinds.data ?? [{ name: DEFAULT_APPROVAL, pending: 0 }]).map((kind) => ({
      value: kind.name,
      label: kind.pending > 0 ? `${kind.name} (${kind.pending})` : kind.name,
    })),
    { value: ALL_APPROVALS, label: 'Todas las aprobaciones' },
  ];

  const columns: DataTableColumn<ApprovalListRow>[] = [
    {
      accessor: 'select',
      title: <VisuallyHidden>Seleccionar</VisuallyHidden>,
      width: 52,
      render: (row) => (
        <Checkbox
          aria-label={`Seleccionar reserva ${row.reservationNumber}`}
          checked={selected.has(row.taskId)}
          onChange={() => toggle(row.taskId)}
          onClick={(event) => event.stopPropagation()}
        />
      ),
    },
    { accessor: 'reservationNumber', title: 'N° Reserva', noWrap: true },
    {
      accessor: 'clientName',
      title: 'Cliente',
      render: (row) => (
        <Stack gap={0}>
          <Text size="sm">{row.clientName}</Text>
          <Text size="xs" c="dimmed">
            {formatRut(row.clientRut)}
          </Text>
        </Stack>
      ),
    },
    {
      accessor: 'projectName',
      title: 'Proyecto',
      render: (row) => (
        <Stack gap={0}>
          <Text size="sm">{row.projectName}</Text>
          <Text size="xs" c="dimmed">
            Depto. {row.apartmentNumber}
          </Text>
        </Stack>
      ),
    },
    { accessor: 'brokerName', title: 'Broker', render: (row) => row.brokerName ?? '—' },
    {
      accessor: 'taskName',
      title: 'Aprobación',
      render: (row) => (
        <Text size="sm" fw={500} c="blue.8">
          {row.taskName}
        </Text>
      ),
    },
    {
      accessor: 'paymentAmount',
      title: 'Monto a Pagar',
      textAlign: 'right',
      noWrap: true,
      render: (row) => (
        <Stack gap={0} align="flex-end">
          <Text size="sm" fw={500}>
            {formatUF(row.paymentAmount)}
          </Text>
          <Text size="xs" c="dimmed">
            {paymentShareText(row)}
          </Text>
        </Stack>
      ),
    },
    {
      accessor: 'daysPending',
      title: 'Días Pendiente',
      textAlign: 'right',
      noWrap: true,
      render: (row) => <DaysPending days={row.daysPending} late={row.daysLate} />,
    },
  ];

  return (
    <>
      <PageHeader
        title="Aprobación de Liquidaciones"
        actions={
          <>
            {/* 'CSV' (spec part 2 §5), and the Excel every list offers: disabled with no rows. */}
            <ExportButtons
              hrefOf={(format) => exportHref('/api/approvals', { search: list.search, approval }, format)}
              disabled={rowsById.size === 0}
              allowed={can(user, 'reports.export')}
            />
            <Button
              leftSection={<IconChecks size={16} />}
              onClick={askOrApprove}
              loading={approveMany.isPending}
              disabled={selected.size === 0}
            >
              {approveMany.isPending ? 'Aprobando...' : `Aprobar Seleccionados (${selected.size})`}
            </Button>
          </>
        }
      />
      <ErrorAlert error={approvals.error ?? (confirming ? null : approveMany.error)} />
      <ApproveDialog
        subject={confirming && selected.size > 0 ? { kind: 'several', count: selected.size } : null}
        loading={approveMany.isPending}
        error={approveMany.error}
        onConfirm={approveSelected}
        onClose={() => setConfirming(false)}
      />
      {report ? <BulkReport report={report} rows={reportRows} onClose={() => setReport(null)} /> : null}
      <Stack gap="md">
        <FilterBar
          activeCount={list.activeFilterCount}
          onClear={list.clearFilters}
          search={
            <SearchInput
              value={list.search}
              onSearch={list.setSearch}
              // Short enough for a phone's width; the box's name says it whole.
              placeholder="Buscar reserva, cliente, proyecto o broker"
              aria-label="Buscar por reserva, cliente, proyecto o broker"
            />
          }
        >
          <Select
            label="Aprobación"
            data={approvalChoices}
            value={approval}
            onChange={(value) =>
              list.setFilter('aprobacion', !value || value === DEFAULT_APPROVAL ? null : value)
            }
            allowDeselect={false}
            w={260}
          />
        </FilterBar>
        <Checkbox
          label={`Seleccionar todas (${rowsById.size})`}
          checked={allSelected}
          indeterminate={selected.size > 0 && !allSelected}
          disabled={rowsById.size === 0}
          onChange={() => setSelected(allSelected ? new Set() : new Set(rowsById.keys()))}
        />
        <ServerTable<ApprovalListRow>
          {...list.table}
          aria-label="Aprobaciones pendientes"
          idAccessor="taskId"
          records={rows}
          total={approvals.data?.total}
          totalIsCapped={approvals.data?.totalIsCapped}
          fetching={approvals.isFetching || approveMany.isPending}
          error={approvals.error}
          noRecordsText={list.search ? 'No hay aprobaciones que coincidan con la búsqueda' : EMPTY_TEXT}
          onRowClick={({ record }) => navigate(paths.settlementApproval(record.taskId))}
          columns={columns}
        />
      </Stack>
    </>
  );
}
