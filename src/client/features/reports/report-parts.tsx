import { Badge, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { formatCLP, formatUF, formatUfValue } from '../../../shared/format';
import { can } from '../../../shared/permissions';
import { type CellValue, displayCell, type ReportColumns } from '../../../shared/reports/columns';
import { ExportButtons as ExportLinks } from '../../components/export-buttons';
import type { DataTableColumn } from '../../components/server-table';
import { useCurrentUser } from '../../lib/session';
import { exportUrl, type ReportName, type ReportQuery } from './api';

/**
 * The table columns of a report from its shared definition (header, key, format — the same the CSV
 * and the XLSX use): numbers right-aligned, the sortable ones with a header button, the totals at the
 * foot, and any cell the screen draws itself (`render`).
 */
export function tableColumns<Row>(
  definitions: ReportColumns<Row>,
  {
    sortable = [],
    totals,
    render = {},
    hidden = [],
    wraps = [],
  }: {
    sortable?: readonly string[];
    /** Numeric or date columns whose drawn cell may wrap between its words (the rest never wrap). */
    wraps?: readonly string[];
    /** Columns the exports carry that the screen shows inside another cell. */
    hidden?: readonly string[];
    totals?: Partial<Record<string, CellValue>> | null | undefined;
    render?: Partial<Record<Extract<keyof Row, string>, (row: Row) => ReactNode>>;
  } = {},
): DataTableColumn<Row>[] {
  return definitions
    .filter((column) => !hidden.includes(column.key))
    .map((column) => {
      const numeric = ['uf', 'integer', 'clp', 'ufValue'].includes(column.format);
      const total = totals?.[column.key];
      const draw = render[column.key];
      return {
        accessor: column.key,
        title: column.header,
        sortable: sortable.includes(column.key),
        ...((numeric || column.format === 'date') && !wraps.includes(column.key) ? { noWrap: true } : {}),
        ...(numeric ? { textAlign: 'right' as const } : {}),
        render: draw ?? ((row: Row) => displayCell(column.format, row[column.key] as CellValue) || '—'),
        ...(total !== undefined
          ? {
              footer: (
                <Text size="sm" fw={700}>
                  {displayCell(column.format, total)}
                </Text>
              ),
            }
          : {}),
      };
    });
}

/** 'Exportar CSV' and 'Exportar Excel' of a report as filtered and sorted; disabled with no rows. */
export function ExportButtons({
  name,
  query,
  disabled,
}: {
  name: ReportName;
  query: ReportQuery;
  disabled: boolean;
}) {
  const user = useCurrentUser();
  return (
    <ExportLinks
      hrefOf={(format) => exportUrl(name, query, format)}
      disabled={disabled}
      allowed={can(user, 'reports.export')}
    />
  );
}

/** The summary cards above a report (UF sums), each with what it leaves out when it does. */
export function SummaryCards({
  cards,
}: {
  cards: { label: string; value: string | null | undefined; note?: string }[];
}) {
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: cards.length }} spacing="sm">
      {cards.map((card) => (
        <Paper key={card.label} withBorder p="md" radius="md">
          <Text size="sm" c="dimmed">
            {card.label}
          </Text>
          <Text fw={700} fz="xl">
            {card.value === null || card.value === undefined ? '—' : formatUF(card.value)}
          </Text>
          {card.note ? (
            <Text size="xs" c="dimmed">
              {card.note}
            </Text>
          ) : null}
        </Paper>
      ))}
    </SimpleGrid>
  );
}

/**
 * 'Monto CLP' on the screen (issue 33): the pesos with 'estimado' while unpaid, the UF value used
 * under them, or 'Valor UF no disponible' — the exports keep 'Valor UF' and 'CLP' as columns of their own.
 */
export function ClpCell({
  row,
}: {
  row: {
    clpAmount: string | null;
    ufValue: string | null;
    clpState: string | null;
    paymentUf?: string | null;
  };
}) {
  if (row.clpState === null) return '—';
  if (row.clpAmount === null) {
    return (
      <Text size="sm" fs="italic" style={{ whiteSpace: 'nowrap' }}>
        {row.clpState}
      </Text>
    );
  }
  // Narrow (the report tables are wide): the pesos, 'estimado' while unpaid, the UF value used.
  return (
    <Stack gap={2} align="flex-end">
      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
        {formatCLP(row.clpAmount)}
      </Text>
      {row.clpState === 'Estimado' ? (
        <Badge size="xs" variant="light" color="gray" miw="max-content">
          estimado
        </Badge>
      ) : null}
      <Text
        size="xs"
        c="dimmed"
        style={{ whiteSpace: 'nowrap' }}
        title={row.paymentUf ? formatUF(row.paymentUf) : undefined}
      >
        UF {formatUfValue(row.ufValue)}
      </Text>
    </Stack>
  );
}
