import { describe, expect, it } from 'vitest';
import { foldText } from '../domain/import-cells';
import { columnsOf, mappingBody, matchHeaders } from './imports';

describe('joined columns (issue 55)', () => {
  it("joins 'Apellido Paterno' + 'Apellido Materno' into Apellidos when no one column is it", () => {
    const mapping = matchHeaders('clients', [
      'RUT',
      'Nombres',
      'Apellido Paterno',
      'Apellido Materno',
      'Email',
    ]);
    expect(mapping.lastName).toEqual([2, 3]);
    expect(mapping.email).toBe(4);
    // A column named Apellidos wins: nothing is joined.
    expect(matchHeaders('clients', ['RUT', 'Apellidos', 'Apellido Paterno']).lastName).toBe(1);
  });

  it('takes the joins remembered from the screen (the CLI reuses them), in the file’s order', () => {
    const remembered = {
      [foldText('Ap. Materno')]: 'lastName',
      [foldText('Ap. Paterno')]: 'lastName',
      rut: 'rut',
    };
    const mapping = matchHeaders('clients', ['Rut', 'Ap. Paterno', 'Ap. Materno', 'Nombre'], remembered);
    expect(mapping.lastName).toEqual([1, 2]);
    expect(mapping.firstName).toBe(3);
    expect(columnsOf(mapping, 'lastName')).toEqual([1, 2]);
    expect(columnsOf(mapping, 'phone')).toEqual([]);
  });

  it('accepts one column, two to four joined, or none; refuses a column joined twice or five', () => {
    expect(mappingBody.safeParse({ lastName: [2, 3], rut: 0, phone: null }).success).toBe(true);
    expect(mappingBody.safeParse({ lastName: [2, 2] }).error?.issues[0]?.message).toBe(
      'Una columna se une una sola vez',
    );
    expect(mappingBody.safeParse({ lastName: [1, 2, 3, 4, 5] }).error?.issues[0]?.message).toBe(
      'Una columna une de 2 a 4 columnas',
    );
  });
});
