import { TextInput, type TextInputProps } from '@mantine/core';
import { useUncontrolled } from '@mantine/hooks';
import { useState } from 'react';
import { formatRut, normalizeRut } from '../../shared/domain/rut';

export const INVALID_RUT_MESSAGE = 'El RUT no es válido (revise el dígito verificador)';

export interface RutInputProps extends Omit<TextInputProps, 'value' | 'defaultValue' | 'onChange'> {
  value?: string;
  defaultValue?: string;
  onChange?: (value: string) => void;
  /** Shown when the user leaves the field with a RUT whose check digit is wrong. */
  invalidMessage?: string;
}

/**
 * A RUT field. Typing keeps only digits, K, dots and the dash; leaving the field formats a valid
 * RUT as '12.345.678-5' and flags a wrong check digit (módulo 11, shared `domain/rut`). The server
 * validates again and stores '12345678-5'.
 *
 * Works with `@mantine/form` in either mode: `<RutInput label="RUT" {...form.getInputProps('rut')} />`.
 * An error passed in (the form's or the server's) wins over the field's own check.
 */
export function RutInput({
  value,
  defaultValue,
  onChange,
  onBlur,
  error,
  invalidMessage = INVALID_RUT_MESSAGE,
  ...props
}: RutInputProps) {
  const [text, setText] = useUncontrolled<string>({
    value,
    defaultValue,
    finalValue: '',
    onChange,
  });
  const [ownError, setOwnError] = useState<string | null>(null);

  return (
    <TextInput
      inputMode="text"
      autoComplete="off"
      maxLength={12}
      {...props}
      value={text}
      error={error || ownError}
      onChange={(event) => {
        setOwnError(null);
        setText(event.currentTarget.value.replace(/[^0-9kK.-]/g, '').toUpperCase());
      }}
      onBlur={(event) => {
        const current = text.trim();
        if (current) {
          const normalized = normalizeRut(current);
          if (normalized) {
            const formatted = formatRut(normalized);
            if (formatted !== text) setText(formatted);
          } else {
            setOwnError(invalidMessage);
          }
        }
        onBlur?.(event);
      }}
    />
  );
}
