import { act, fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render';
import { SearchInput } from './search-input';

function Harness() {
  const [value, setValue] = useState('uno');
  return (
    <>
      <SearchInput value={value} onSearch={() => {}} placeholder="B" />
      <button type="button" onClick={() => setValue('dos')}>
        atrás
      </button>
    </>
  );
}

describe('SearchInput', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('searches with the trimmed text only after a 300 ms pause', () => {
    const onSearch = vi.fn();
    renderWithProviders(<SearchInput value="" onSearch={onSearch} placeholder="Buscar cliente" />);
    const input = screen.getByPlaceholderText('Buscar cliente');
    fireEvent.change(input, { target: { value: 'Ju' } });
    act(() => vi.advanceTimersByTime(200));
    fireEvent.change(input, { target: { value: 'Juan ' } });
    act(() => vi.advanceTimersByTime(299));
    expect(onSearch).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(onSearch).toHaveBeenCalledTimes(1);
    expect(onSearch).toHaveBeenCalledWith('Juan');
  });

  it('searches at once when the field is left, and not again after the pause', () => {
    const onSearch = vi.fn();
    renderWithProviders(<SearchInput value="" onSearch={onSearch} placeholder="Buscar" />);
    const input = screen.getByPlaceholderText('Buscar');
    fireEvent.change(input, { target: { value: 'Paula' } });
    fireEvent.blur(input);
    expect(onSearch).toHaveBeenCalledWith('Paula');
    act(() => vi.advanceTimersByTime(1000));
    expect(onSearch).toHaveBeenCalledTimes(1);
  });

  it('searches at once on Enter and on clear', () => {
    const onSearch = vi.fn();
    renderWithProviders(<SearchInput value="previa" onSearch={onSearch} placeholder="Buscar" />);
    const input = screen.getByPlaceholderText('Buscar') as HTMLInputElement;
    expect(input.value).toBe('previa');
    fireEvent.change(input, { target: { value: 'Pérez' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(onSearch).toHaveBeenLastCalledWith('Pérez');
    fireEvent.click(screen.getByRole('button', { name: 'Limpiar búsqueda' }));
    expect(onSearch).toHaveBeenLastCalledWith('');
    expect(input.value).toBe('');
    act(() => vi.advanceTimersByTime(1000));
    expect(onSearch).toHaveBeenCalledTimes(2);
  });

  it('searches only on Enter (or when emptied) in the on-Enter mode', () => {
    const onSearch = vi.fn();
    renderWithProviders(<SearchInput value="" onSearch={onSearch} searchOn="enter" placeholder="Buscar" />);
    const input = screen.getByPlaceholderText('Buscar');
    fireEvent.change(input, { target: { value: 'Ñuñoa ' } });
    act(() => vi.advanceTimersByTime(1000));
    expect(onSearch).not.toHaveBeenCalled();
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(onSearch).toHaveBeenCalledWith('Ñuñoa');
    fireEvent.change(input, { target: { value: '' } });
    expect(onSearch).toHaveBeenLastCalledWith('');
    expect(onSearch).toHaveBeenCalledTimes(2);
  });

  it('follows the value when it changes from outside (back/forward)', () => {
    renderWithProviders(<Harness />);
    const input = screen.getByPlaceholderText('B') as HTMLInputElement;
    expect(input.value).toBe('uno');
    fireEvent.click(screen.getByRole('button', { name: 'atrás' }));
    expect(input.value).toBe('dos');
  });
});
