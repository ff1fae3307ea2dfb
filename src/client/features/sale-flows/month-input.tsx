import { TextInput, type TextInputProps } from '@mantine/core';
import { IconCalendarMonth } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { formatMonthYear, parseMonthYear } from '../../../shared/format';

export const MONTH_INPUT_MESSAGE = 'Escriba el mes como «marzo de 2027» o 2027-03';

/**
 * What a month field holds once read: 'YYYY-MM-01', null when empty, or undefined when the text is
 * no month at all.
 */
export function readMonth(text: string): string | null | undefined {
  if (text.trim() === '') return null;
  return parseMonthYear(text) ?? undefined;
}

/**
 * A month typed as 'marzo de 2027' or 2027-03 and shown as 'marzo de 2027'; its value is the first
 * day of the month ('2027-03-01') or null. A text that is no month stays as typed and says so.
 */
export function MonthInput({
  value,
  onChange,
  error,
  ...props
}: {
  /** 'YYYY-MM-01', null (empty), or undefined while the text typed is no month (kept as typed). */
  value: string | null | undefined;
  /** The month read from the text: 'YYYY-MM-01', null (empty) or undefined (not a month). */
  onChange: (value: string | null | undefined) => void;
} & Omit<TextInputProps, 'value' | 'onChange'>) {
  const [text, setText] = useState(formatMonthYear(value));
  const [typedError, setTypedError] = useState<string | null>(null);
  // The text follows the value only when it changes from outside (not while the user types it).
  const emitted = useRef<string | null | undefined>(value);
  useEffect(() => {
    if (value !== emitted.current) {
      emitted.current = value;
      if (value !== undefined) setText(formatMonthYear(value));
    }
  }, [value]);
  return (
    <TextInput
      placeholder="marzo de 2027"
      leftSection={<IconCalendarMonth size={16} />}
      {...props}
      value={text}
      error={typedError ?? error}
      onChange={(event) => {
        const next = event.currentTarget.value;
        setText(next);
        setTypedError(null);
        emitted.current = readMonth(next);
        onChange(emitted.current);
      }}
      onBlur={(event) => {
        const read = readMonth(text);
        if (read === undefined) setTypedError(MONTH_INPUT_MESSAGE);
        else setText(formatMonthYear(read));
        props.onBlur?.(event);
      }}
    />
  );
}
