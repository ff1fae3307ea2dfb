import { NumberInput, type NumberInputProps } from '@mantine/core';
import { type ClipboardEvent, useState } from 'react';
import { AMOUNT_READING_MESSAGES, readAmountText } from '../../shared/format/amount-text';

type MoneyInputProps = Omit<NumberInputProps, 'decimalScale' | 'thousandSeparator' | 'decimalSeparator'>;

/**
 * An amount in UF: es-CL separators ('1.234,56'), two decimals, never negative. The value is a
 * number while typing; forms turn it into the decimal string the API expects with `toAmount`.
 * A pasted amount is read with either decimal mark when that is unambiguous ('1.5', '5000.5',
 * '1,234.56'); one that cannot be read, or is negative, is refused with a message under the field —
 * never turned silently into another number.
 */
export function MoneyInput({ error, onChange, ...props }: MoneyInputProps) {
  const [pasteError, setPasteError] = useState<string | null>(null);
  // Runs before NumberInput's own paste handling (capture phase), and stops it when it reads the
  // whole value itself; a paste into part of a value is left to NumberInput.
  const paste = (event: ClipboardEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    // Pasting over the whole value, into an empty field or over a bare 0 replaces it; into part of
    // a value, it is as typed.
    const replacesAll =
      /^0?([.,]0*)?$/.test(input.value.trim()) ||
      (input.selectionStart === 0 && input.selectionEnd === input.value.length);
    if (!replacesAll) return;
    event.preventDefault();
    event.stopPropagation();
    const reading = readAmountText(event.clipboardData.getData('text'));
    if (reading.ok) {
      setPasteError(null);
      onChange?.(reading.value);
    } else {
      setPasteError(AMOUNT_READING_MESSAGES[reading.reason]);
    }
  };
  return (
    <NumberInput
      min={0}
      step={0.01}
      decimalScale={2}
      thousandSeparator="."
      decimalSeparator=","
      allowNegative={false}
      leftSection="UF"
      leftSectionWidth={36}
      hideControls
      {...props}
      error={pasteError ?? error}
      onPasteCapture={paste}
      onChange={(value) => {
        setPasteError(null);
        onChange?.(value);
      }}
    />
  );
}

export const DISCOUNT_TOO_LARGE_MESSAGE = 'El descuento no puede superar 100 %';
export const DISCOUNT_NEGATIVE_MESSAGE = 'El descuento no puede ser negativo';
export const DISCOUNT_UNREADABLE_MESSAGE = 'Ingrese un descuento válido entre 0 % y 100 %';

/**
 * Why a discount typed as a percent is out of range, or null. NumberInput gives a number, or the
 * text while it is not one yet ('-', '12.'): a lone '-' is a negative on its way, other text that is
 * no number is said to be unreadable.
 */
export function discountProblem(value: unknown): string | null {
  if (value === '' || value === null || value === undefined) return null;
  const number = typeof value === 'number' ? value : Number(value);
  if (Number.isNaN(number)) {
    return String(value).trim().startsWith('-') ? DISCOUNT_NEGATIVE_MESSAGE : DISCOUNT_UNREADABLE_MESSAGE;
  }
  if (number < 0) return DISCOUNT_NEGATIVE_MESSAGE;
  if (number > 100) return DISCOUNT_TOO_LARGE_MESSAGE;
  return null;
}

/**
 * A discount typed as a percent (0–100, step 0.001). A value over 100 or below 0 is kept as typed —
 * its sign too — and said to be wrong (never cut silently to another number); the form refuses to
 * save it, and so does the server.
 */
export function PercentInput({ error, ...props }: Omit<NumberInputProps, 'decimalScale' | 'min' | 'max'>) {
  const problem = discountProblem(props.value);
  return (
    <NumberInput
      min={0}
      max={100}
      step={0.001}
      decimalScale={3}
      decimalSeparator=","
      clampBehavior="none"
      allowNegative
      rightSection="%"
      {...props}
      error={problem ?? error}
    />
  );
}

/** A form number ('' when empty) as the API's decimal string; '' stays '' so the schema can say what is missing. */
export function toAmount(value: number | string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  return String(value);
}
