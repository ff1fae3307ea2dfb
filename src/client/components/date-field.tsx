import { DateInput, type DateInputProps } from '@mantine/dates';
import { IconCalendar } from '@tabler/icons-react';

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

/**
 * A date field shown and typed as dd/mm/aaaa (Spanish calendar, weeks from Monday), whose value is
 * the 'YYYY-MM-DD' string the API expects. `<DateField label="Fecha" {...form.getInputProps('date')} />`
 */
export function DateField({ value, defaultValue, onChange, ...props }: DateFieldProps) {
  return (
    <DateInput
      valueFormat="DD/MM/YYYY"
      locale="es"
      placeholder="dd/mm/aaaa"
      dateParser={parseDisplayDate}
      leftSection={<IconCalendar size={16} />}
      popoverProps={{ withinPortal: true }}
      {...props}
      {...(value !== undefined ? { value: value || null } : {})}
      {...(defaultValue !== undefined ? { defaultValue: defaultValue || null } : {})}
      onChange={(next) => onChange?.(next ? next.slice(0, 10) : null)}
    />
  );
}
