import { Badge, Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { UF_MISSING_LABEL } from '../../shared/domain/uf';
import { formatCLP, formatDate, formatUfValue, santiagoDateOf } from '../../shared/format';
import type { clpFigure, UfMonth } from '../../shared/schemas/uf-values';
import { api } from '../lib/api';

export type ClpFigureView = z.infer<typeof clpFigure>;

/**
 * A payment in pesos as the server computed it (decision 0034): the amount paid with the UF value of
 * its day, today's estimate labelled 'estimado', or 'Valor UF no disponible' — never a guess.
 */
export function ClpText({
  figure,
  compact = false,
  align = 'flex-start',
}: {
  figure: ClpFigureView;
  compact?: boolean;
  /** Where the lines line up: left (cards, lists) or right (a column of amounts). */
  align?: 'flex-start' | 'flex-end';
}) {
  if (figure.state === 'missing') {
    return (
      <Text
        size={compact ? 'xs' : 'sm'}
        fs="italic"
        data-testid="clp-missing"
        style={{ whiteSpace: 'nowrap' }}
      >
        {UF_MISSING_LABEL}
        {compact ? '' : ` (${formatDate(figure.date)})`}
      </Text>
    );
  }
  const estimated = figure.state === 'estimated';
  return (
    <Stack gap={0} align={align} data-testid={estimated ? 'clp-estimated' : 'clp-frozen'}>
      <Group gap={6} wrap="nowrap">
        <Text size={compact ? 'xs' : 'sm'} fw={compact ? 500 : 600} style={{ whiteSpace: 'nowrap' }}>
          {formatCLP(figure.clp)}
        </Text>
        {estimated ? (
          <Badge size="xs" variant="light" color="gray" miw="max-content">
            estimado
          </Badge>
        ) : null}
      </Group>
      {compact ? null : (
        // Wraps between its words on a phone's narrow column (the value itself stays whole): on one
        // line it ran into the next column ('$ 4%)877,50', issue 57).
        <Text size="xs" c="dimmed" data-testid="clp-uf-value" style={{ overflowWrap: 'anywhere' }}>
          Valor UF {estimated ? 'hoy' : `del ${formatDate(figure.date)}`}:{' '}
          <span style={{ whiteSpace: 'nowrap' }}>{formatUfValue(figure.ufValue)}</span>
        </Text>
      )}
    </Stack>
  );
}

/**
 * Today's UF value (Santiago's day) for a form's live preview, or null when not loaded: read from
 * the month's values (GET /api/uf-values, open to every signed-in user).
 */
export function useUfToday(): { today: string; value: string | null; isPending: boolean } {
  const today = santiagoDateOf(new Date());
  const month = today.slice(0, 7);
  const query = useQuery({
    queryKey: ['uf-values', 'month', month],
    queryFn: ({ signal }) => api<UfMonth>('/api/uf-values', { query: { month }, signal }),
    staleTime: 5 * 60_000,
  });
  const value = query.data?.days.find((day) => day.date === today)?.value ?? null;
  return { today, value, isPending: query.isPending };
}
