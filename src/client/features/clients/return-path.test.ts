import { describe, expect, it } from 'vitest';
import { safeReturnPath } from './client-form-page';

describe('safeReturnPath', () => {
  it('follows only paths inside the app', () => {
    expect(safeReturnPath('/reservas/nueva')).toBe('/reservas/nueva');
    expect(safeReturnPath('/reservas/editar/0b0d7c9e-1f1a-4c1e-9d5a-2a3b4c5d6e7f')).toBe(
      '/reservas/editar/0b0d7c9e-1f1a-4c1e-9d5a-2a3b4c5d6e7f',
    );
    expect(safeReturnPath('//evil.example/x')).toBeNull();
    expect(safeReturnPath('https://evil.example')).toBeNull();
    expect(safeReturnPath('/reservas?x=1')).toBeNull();
    expect(safeReturnPath(null)).toBeNull();
    expect(safeReturnPath('')).toBeNull();
  });
});
