// Plain CSS bars: a chart library would cost ~100 KB for six bars (decision 0005).
import { Box, Group, Paper, Progress, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { formatShortMonth } from '../../../shared/format';
import classes from './charts.module.css';

export function Panel({
  title,
  icon,
  children,
  testId,
  note,
}: {
  title: string;
  icon?: ReactNode;
  children: ReactNode;
  testId?: string;
  /** What the panel's figures leave out (shared/domain/figures.ts), beside the title. */
  note?: string;
}) {
  return (
    <Paper withBorder radius="md" p="md" h="100%" data-testid={testId} component="section" aria-label={title}>
      <Group gap="xs" mb="md" wrap="nowrap">
        {icon ? (
          <Box c="blue" style={{ display: 'flex' }}>
            {icon}
          </Box>
        ) : null}
        <Title order={3} size="h5">
          {title}
        </Title>
        {note ? (
          <Text size="xs" c="dimmed" ml="auto" ta="right">
            {note}
          </Text>
        ) : null}
      </Group>
      {children}
    </Paper>
  );
}

export function EmptyNote({ children }: { children: ReactNode }) {
  return (
    <Text c="dimmed" size="sm" ta="center" py="lg">
      {children}
    </Text>
  );
}

const CHART_HEIGHT = 160;

/**
 * Monthly bars, heights relative to the largest month (spec part 1 §2). `value` drives the height;
 * `label` is what the bar shows.
 */
export function MonthlyBars({
  months,
  color,
  unit,
}: {
  months: { month: string; value: number; label: string }[];
  color: string;
  /** Read by screen readers after the value ('reservas', 'UF'). */
  unit: string;
}) {
  const max = Math.max(0, ...months.map((m) => m.value));
  // Labels up to 7 characters always fit six columns; longer ones may have to turn upright.
  const longest = Math.max(0, ...months.map((m) => m.label.length));
  const chars = longest > 7 ? String(Math.min(longest, 12)) : undefined;
  return (
    <Box
      component="ul"
      className={classes.bars}
      data-chars={chars}
      m={0}
      p={0}
      style={{ listStyle: 'none', display: 'flex', alignItems: 'flex-end', gap: 8 }}
      aria-label={`Últimos ${months.length} meses`}
    >
      {months.map((m) => {
        const percent = max > 0 ? (m.value / max) * 100 : 0;
        // 'sept 2026' on two lines: six labels fit a phone's width.
        const [monthName, year] = formatShortMonth(m.month).split(' ');
        return (
          <Box
            component="li"
            key={m.month}
            style={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column', alignItems: 'center' }}
            aria-label={`${formatShortMonth(m.month)}: ${m.label} ${unit}`}
            data-month={m.month}
          >
            <Text size="xs" fw={600} ta="center" className={classes.value} aria-hidden>
              {m.label}
            </Text>
            <Box
              h={CHART_HEIGHT}
              w="100%"
              mt={4}
              style={{ display: 'flex', alignItems: 'flex-end', justifyContent: 'center' }}
              aria-hidden
            >
              <Box
                data-bar
                w="min(100%, 44px)"
                style={{
                  height: `${percent}%`,
                  minHeight: m.value > 0 ? 3 : 1,
                  background:
                    m.value > 0 ? `var(--mantine-color-${color}-filled)` : 'var(--mantine-color-gray-3)',
                  borderRadius: '4px 4px 0 0',
                  transition: 'height 300ms ease',
                }}
              />
            </Box>
            <Text size="xs" c="dimmed" mt={4} ta="center" lh={1.25} aria-hidden>
              {monthName}
              <br />
              {year}
            </Text>
          </Box>
        );
      })}
    </Box>
  );
}

/** A labelled horizontal bar: value over total, with a caption under it. */
export function LabelledBar({
  title,
  detail,
  value,
  total,
  caption,
  color = 'blue',
}: {
  title: ReactNode;
  detail: ReactNode;
  value: number;
  total: number;
  caption?: ReactNode;
  color?: string;
}) {
  const percent = total > 0 ? Math.min(100, (value / total) * 100) : 0;
  return (
    <Stack gap={4}>
      <Group justify="space-between" gap="xs" wrap="nowrap" align="baseline">
        <Box style={{ minWidth: 0 }}>{title}</Box>
        <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
          {detail}
        </Text>
      </Group>
      <Progress value={percent} color={color} size="md" radius="xl" aria-hidden />
      {caption ? (
        <Text size="xs" c="dimmed">
          {caption}
        </Text>
      ) : null}
    </Stack>
  );
}
