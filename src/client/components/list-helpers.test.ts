import { describe, expect, it } from 'vitest';
import { INVALID_DATE_MESSAGE, parseDisplayDate, typedDateProblem } from './date-field';
import { nextSortStatus, paginationText, sortChoicesOf } from './server-table';

describe('paginationText', () => {
  it('writes the range and total in Spanish with es-CL thousands', () => {
    expect(paginationText(1, 25, 1234, false)).toBe('Mostrando 1–25 de 1.234');
    expect(paginationText(26, 50, 10_000, true)).toBe('Mostrando 26–50 de más de 10.000');
    expect(paginationText(0, 0, 0, false)).toBe('Sin resultados');
  });
});

describe('parseDisplayDate', () => {
  it('reads dd/mm/aaaa and aaaa-mm-dd as a calendar date, without a time zone', () => {
    expect(parseDisplayDate('12/04/1985')).toBe('1985-04-12');
    expect(parseDisplayDate('1/2/2001')).toBe('2001-02-01');
    expect(parseDisplayDate('29-02-2024')).toBe('2024-02-29');
    expect(parseDisplayDate('1985-04-12')).toBe('1985-04-12');
  });

  it('refuses what is not a real date', () => {
    expect(parseDisplayDate('31/02/2024')).toBeNull();
    expect(parseDisplayDate('29/02/2023')).toBeNull();
    expect(parseDisplayDate('12/13/2020')).toBeNull();
    expect(parseDisplayDate('abril')).toBeNull();
    expect(parseDisplayDate('')).toBeNull();
  });
});

describe('typedDateProblem', () => {
  it('says what is wrong with a typed date instead of clearing it', () => {
    expect(typedDateProblem('', {})).toBeNull();
    expect(typedDateProblem('12/04/1985', { maxDate: '2026-11-23' })).toBeNull();
    expect(typedDateProblem('31/02/1980', {})).toBe(INVALID_DATE_MESSAGE);
    expect(typedDateProblem('mañana', {})).toBe(INVALID_DATE_MESSAGE);
    expect(typedDateProblem('01/01/2030', { maxDate: '2026-11-23' })).toBe(
      'La fecha no puede ser posterior al 23/11/2026',
    );
    expect(typedDateProblem('01/01/1899', { minDate: new Date(1900, 0, 1) })).toBe(
      'La fecha no puede ser anterior al 01/01/1900',
    );
  });
});

describe('nextSortStatus', () => {
  const newest = { columnAccessor: 'createdAt', direction: 'desc' } as const;

  it('sorts a new column A→Z, then Z→A, then goes back to the list’s own order', () => {
    const first = nextSortStatus(newest, 'rut', newest);
    expect(first).toEqual({ columnAccessor: 'rut', direction: 'asc' });
    const second = nextSortStatus(first, 'rut', newest);
    expect(second).toEqual({ columnAccessor: 'rut', direction: 'desc' });
    expect(nextSortStatus(second, 'rut', newest)).toEqual(newest);
  });

  it('flips the default column itself between its two directions', () => {
    const date = { columnAccessor: 'reservationDate', direction: 'desc' } as const;
    const flipped = nextSortStatus(date, 'reservationDate', date);
    expect(flipped).toEqual({ columnAccessor: 'reservationDate', direction: 'asc' });
    expect(nextSortStatus(flipped, 'reservationDate', date)).toEqual(date);
  });
});

describe('sortChoicesOf', () => {
  it('offers the extra orders, then each sortable column with a text title both ways', () => {
    const choices = sortChoicesOf(
      [
        { accessor: 'rut', title: 'RUT', sortable: true },
        { accessor: 'email', title: 'Correo Electrónico' },
        { accessor: 'fullName', title: 'Nombre Completo', sortable: true },
      ],
      [{ columnAccessor: 'createdAt', direction: 'desc', label: 'Más recientes primero' }],
    );
    expect(choices.map((choice) => choice.label)).toEqual([
      'Más recientes primero',
      'RUT ↑',
      'RUT ↓',
      'Nombre Completo ↑',
      'Nombre Completo ↓',
    ]);
  });
});
