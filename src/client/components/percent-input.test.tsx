import { fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/render';
import {
  DISCOUNT_NEGATIVE_MESSAGE,
  DISCOUNT_TOO_LARGE_MESSAGE,
  DISCOUNT_UNREADABLE_MESSAGE,
  discountProblem,
  PercentInput,
} from './money-input';

function Field() {
  const [value, setValue] = useState<number | string>(0);
  return (
    <>
      <PercentInput label="Descuento adicional" value={value} onChange={setValue} />
      <output data-testid="value">{String(value)}</output>
    </>
  );
}

describe('PercentInput (a discount typed as a percent)', () => {
  it('keeps a negative discount as typed, its sign too, and says it is wrong', () => {
    renderWithProviders(<Field />);
    fireEvent.change(screen.getByLabelText('Descuento adicional'), { target: { value: '-10' } });
    expect(screen.getByTestId('value').textContent).toBe('-10');
    expect(screen.getByText(DISCOUNT_NEGATIVE_MESSAGE)).toBeTruthy();
  });

  it('keeps a discount over 100 as typed and says it is wrong', () => {
    renderWithProviders(<Field />);
    fireEvent.change(screen.getByLabelText('Descuento adicional'), { target: { value: '150' } });
    expect(screen.getByTestId('value').textContent).toBe('150');
    expect(screen.getByText(DISCOUNT_TOO_LARGE_MESSAGE)).toBeTruthy();
  });

  it('judges what NumberInput gives while typing: numbers, and text that is not one yet', () => {
    expect(discountProblem(0)).toBeNull();
    expect(discountProblem(100)).toBeNull();
    expect(discountProblem('')).toBeNull();
    expect(discountProblem('12.')).toBeNull();
    expect(discountProblem(100.001)).toBe(DISCOUNT_TOO_LARGE_MESSAGE);
    expect(discountProblem('150.')).toBe(DISCOUNT_TOO_LARGE_MESSAGE);
    expect(discountProblem(-0.001)).toBe(DISCOUNT_NEGATIVE_MESSAGE);
    expect(discountProblem('-')).toBe(DISCOUNT_NEGATIVE_MESSAGE);
    expect(discountProblem('.')).toBe(DISCOUNT_UNREADABLE_MESSAGE);
  });
});
