import { Badge, Group, Stack, Text } from '@mantine/core';
import type { z } from 'zod';
import { UF_MISSING_LABEL } from '../../shared/domain/uf';
import { formatCLP, formatDate, formatUfValue } from '../../shared/format';
import type { clpFigure } from '../../shared/schemas/uf-values';

export type ClpFigureView = z.infer<typeof clpFigure>;

/**
 * A payment in pesos as the server computed it (decision 0034): the amount paid with the UF value of
 * its day, today's estimate labelled 'estimado', or 'Valor UF no disponible' — never a guess.
 */
export function ClpText({ figure, compact = false }: { figure: ClpFigureView; compact?: boolean }) {
  if (figure.state === 'missing') {
    return (
      <Text
        size={compact ? 'xs' : 'sm'}
        c="orange.8"
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
    <Stack gap={0} align="flex-start" data-testid={estimated ? 'clp-estimated' : 'clp-frozen'}>
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
        <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          UF {formatUfValue(figure.ufValue)} {estimated ? 'de hoy' : `del ${formatDate(figure.date)}`}
        </Text>
      )}
    </Stack>
  );
}
