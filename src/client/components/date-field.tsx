// The date pickers' stylesheet loads with the screens that use them, not with the first screen.
import '@mantine/dates/styles.css';
import { DateInput, type DateInputProps } from '@mantine/dates';
// Month and weekday names of the pickers (dayjs, through Mantine): loaded with the first date field,
// not with the first screen. Instants are shown in America/Santiago by shared/format; date inputs work
// on 'YYYY-MM-DD' strings, free of time zones.
import 'dayjs/locale/es';
import { IconCalendar } from '@tabler/icons-react';
import { useState } from 'react';
import { filterWidth } from './filter-bar';

export interface DateFieldProps
  extends Omit<DateInputProps, 'value' | 'defaultValue' | 'onChange' | 'valueFormat' | 'dateParser'> {
  /** A calendar date 'YYYY-MM-DD', or null/'' when empty. */
  value?: string | null;
  defaultValue?: string | null;
  onChange?: (value: string | null) => void;
}

function isoIfReal(year: number, month: number, day: number): string | null {
  if (year < 1000 || month < 1 || month > 12 || day < 1) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/**
 * What the user typed as a calendar date: 'dd/mm/aaaa' (also with '-' or '.', and one-digit day
 * or month) or 'aaaa-mm-dd'. Null unless it is a real date. Never goes through a time zone.
 */
export function parseDisplayDate(text: string): string | null {
  const value = text.trim();
  const chilean = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(value);
  if (chilean) return isoIfReal(Number(chilean[3]), Number(chilean[2]), Number(chilean[1]));
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (iso) return isoIfReal(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  return null;
}

export const INVALID_DATE_MESSAGE = 'Fecha no válida: escríbala como dd/mm/aaaa (por ejemplo 31/01/1980)';

/** A bound of the picker ('YYYY-MM-DD', or a Date taken on the local calendar) as 'YYYY-MM-DD'. */
function isoOf(bound: Date | string): string {
  if (typeof bound === 'string') return bound.slice(0, 10);
  return `${bound.getFullYear()}-${String(bound.getMonth() + 1).padStart(2, '0')}-${String(bound.getDate()).padStart(2, '0')}`;
}

const shown = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;

/** Why a typed text is not an acceptable date, or null when it is (or is empty). */
export function typedDateProblem(
  text: string,
  bounds: { minDate?: Date | string | undefined; maxDate?: Date | string | undefined },
): string | null {
  if (text.trim() === '') return null;
  const iso = parseDisplayDate(text);
  if (!iso) return INVALID_DATE_MESSAGE;
  if (bounds.maxDate && iso > isoOf(bounds.maxDate)) {
    return `La fecha no puede ser posterior al ${shown(isoOf(bounds.maxDate))}`;
  }
  if (bounds.minDate && iso < isoOf(bounds.minDate)) {
    return `La fecha no puede ser anterior al ${shown(isoOf(bounds.minDate))}`;
  }
  return null;
}

/**
 * A date field shown and typed as dd/mm/aaaa (Spanish calendar, weeks from Monday), whose value is
 * the 'YYYY-MM-DD' string the API expects. `<DateField label="Fecha" {...form.getInputProps('date')} />`
 * A typed text that is not a date (31/02/1980) or is out of bounds (a birth date in the future) stays
 * as typed and is said to be wrong — it is never cleared and then reported as missing.
 */
export function DateField({ value, defaultValue, onChange, error, onBlur, ...props }: DateFieldProps) {
  const [typedError, setTypedError] = useState<string | null>(null);
  return (
    <DateInput
      valueFormat="DD/MM/YYYY"
      locale="es"
      firstDayOfWeek={1}
      placeholder="dd/mm/aaaa"
      dateParser={parseDisplayDate}
      leftSection={<IconCalendar size={16} />}
      popoverProps={{ withinPortal: true }}
      fixOnBlur={false}
      {...props}
      error={typedError ?? error}
      onBlur={(event) => {
        setTypedError(typedDateProblem(event.currentTarget.value, props));
        onBlur?.(event);
      }}
      {...(value !== undefined ? { value: value || null } : {})}
      {...(defaultValue !== undefined ? { defaultValue: defaultValue || null } : {})}
      onChange={(next) => {
        setTypedError(null);
        onChange?.(next ? next.slice(0, 10) : null);
      }}
    />
  );
}

/**
 * A list's 'Desde' and 'Hasta' filters (the URL's `desde` and `hasta`, `useListParams`), each bounding
 * the other's calendar.
 */
export function DateRangeFilter({
  list,
}: {
  list: {
    filters: Partial<Record<'desde' | 'hasta', string>>;
    setFilter: (filter: 'desde' | 'hasta', value: string | null) => void;
  };
}) {
  return (
    <>
      <DateField
        label="Desde"
        value={list.filters.desde ?? null}
        onChange={(value) => list.setFilter('desde', value)}
        maxDate={list.filters.hasta}
        clearable
        w={filterWidth(155)}
      />
      <DateField
        label="Hasta"
        value={list.filters.hasta ?? null}
        onChange={(value) => list.setFilter('hasta', value)}
        minDate={list.filters.desde}
        clearable
        w={filterWidth(155)}
      />
    </>
  );
}
