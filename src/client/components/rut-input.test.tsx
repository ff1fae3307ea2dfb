import { fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render';
import { INVALID_RUT_MESSAGE, RutInput } from './rut-input';

function Controlled({ onChange, error }: { onChange?: (value: string) => void; error?: string }) {
  const [value, setValue] = useState('');
  return (
    <RutInput
      label="RUT"
      value={value}
      error={error}
      onChange={(next) => {
        setValue(next);
        onChange?.(next);
      }}
    />
  );
}

describe('RutInput', () => {
  it('formats a valid RUT typed without dots as 12.345.678-5 when the user leaves the field', () => {
    const onChange = vi.fn();
    renderWithProviders(<Controlled onChange={onChange} />);
    const input = screen.getByLabelText('RUT') as HTMLInputElement;
    fireEvent.change(input, { target: { value: '123456785' } });
    expect(input.value).toBe('123456785');
    fireEvent.blur(input);
    expect(input.value).toBe('12.345.678-5');
    expect(onChange).toHaveBeenLastCalledWith('12.345.678-5');
    expect(screen.queryByText(INVALID_RUT_MESSAGE)).toBeNull();
  });

  it('accepts a K check digit in either case and shows it upper-case', () => {
    renderWithProviders(<Controlled />);
    const input = screen.getByLabelText('RUT') as HTMLInputElement;
    fireEvent.change(input, { target: { value: '10000013-k' } });
    fireEvent.blur(input);
    expect(input.value).toBe('10.000.013-K');
  });

  it('flags a wrong check digit on blur, keeps the text, and clears the flag when the user types', () => {
    renderWithProviders(<Controlled />);
    const input = screen.getByLabelText('RUT') as HTMLInputElement;
    fireEvent.change(input, { target: { value: '12.345.678-9' } });
    fireEvent.blur(input);
    expect(screen.getByText(INVALID_RUT_MESSAGE)).toBeTruthy();
    expect(input.value).toBe('12.345.678-9');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(input, { target: { value: '12.345.678-' } });
    expect(screen.queryByText(INVALID_RUT_MESSAGE)).toBeNull();
  });

  it('keeps only digits, K, dots and the dash while typing, and says nothing about an empty field', () => {
    renderWithProviders(<Controlled />);
    const input = screen.getByLabelText('RUT') as HTMLInputElement;
    fireEvent.change(input, { target: { value: 'RUT: 12.345.678-5 ' } });
    expect(input.value).toBe('12.345.678-5');
    fireEvent.change(input, { target: { value: '' } });
    fireEvent.blur(input);
    expect(screen.queryByText(INVALID_RUT_MESSAGE)).toBeNull();
  });

  it('shows an error given by the form or the server', () => {
    renderWithProviders(<Controlled error="Ya existe un cliente con este RUT" />);
    expect(screen.getByText('Ya existe un cliente con este RUT')).toBeTruthy();
  });

  it('works uncontrolled (a form in uncontrolled mode)', () => {
    const onChange = vi.fn();
    renderWithProviders(<RutInput label="RUT" defaultValue="" onChange={onChange} />);
    const input = screen.getByLabelText('RUT') as HTMLInputElement;
    fireEvent.change(input, { target: { value: '6k' } });
    fireEvent.blur(input);
    expect(input.value).toBe('6-K');
    expect(onChange).toHaveBeenLastCalledWith('6-K');
  });
});
