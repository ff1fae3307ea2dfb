import { NumberInput, type NumberInputProps } from '@mantine/core';

/**
 * An amount in UF: es-CL separators ('1.234,56'), two decimals, never negative. The value is a
 * number while typing; forms turn it into the decimal string the API expects with `toAmount`.
 */
export function MoneyInput(
  props: Omit<NumberInputProps, 'decimalScale' | 'thousandSeparator' | 'decimalSeparator'>,
) {
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
    />
  );
}

/** A discount typed as a percent (0–100, step 0.001), clamped as the spec asks. */
export function PercentInput(props: Omit<NumberInputProps, 'decimalScale' | 'min' | 'max'>) {
  return (
    <NumberInput
      min={0}
      max={100}
      step={0.001}
      decimalScale={3}
      decimalSeparator=","
      clampBehavior="strict"
      allowNegative={false}
      rightSection="%"
      {...props}
    />
  );
}

/** A form number ('' when empty) as the API's decimal string; '' stays '' so the schema can say what is missing. */
export function toAmount(value: number | string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  return String(value);
}
