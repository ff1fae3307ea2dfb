import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ACTION_NAMES, ACTIONS, holds, USER_TYPES } from '../../../shared/permissions';
import { policyDescriptions, taskRuleDescriptions } from '../../../shared/permissions-text';
import { renderWithProviders } from '../../test/render';
import { PermissionsSection } from './permissions-section';

describe('PermissionsSection', () => {
  it('has a row per action of the catalogue and a column per user type, each cell from `can`', () => {
    renderWithProviders(<PermissionsSection />);
    const table = screen.getByRole('table', { name: 'Permisos por tipo de usuario' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((header) => header.textContent);
    expect(headers).toEqual(['Acción', ...USER_TYPES]);

    const rows = table.querySelectorAll('tbody tr');
    expect(rows).toHaveLength(ACTION_NAMES.length);
    ACTION_NAMES.forEach((action, index) => {
      const row = rows[index] as HTMLElement;
      expect(row.dataset.action).toBe(action);
      expect(within(row).getByText(ACTIONS[action].label)).toBeTruthy();
      const cells = [...row.querySelectorAll('[data-allowed]')].map((cell) =>
        cell.getAttribute('data-allowed'),
      );
      expect(cells).toEqual(USER_TYPES.map((userType) => String(holds(userType, action))));
    });
  });

  it('checks Administrador and not KAM for managing users', () => {
    renderWithProviders(<PermissionsSection />);
    const table = screen.getByRole('table', { name: 'Permisos por tipo de usuario' });
    const row = table.querySelector('tr[data-action="users.manage"]') as HTMLElement;
    expect(within(row).getByRole('img', { name: 'Administrador: permitido' })).toBeTruthy();
    expect(within(row).getByRole('img', { name: 'KAM: no permitido' })).toBeTruthy();
  });

  it('lists the record-level rules and says everything else is open to everyone', () => {
    renderWithProviders(<PermissionsSection />);
    for (const description of [...Object.values(policyDescriptions), ...taskRuleDescriptions]) {
      expect(screen.getByText(description)).toBeTruthy();
    }
    expect(screen.getByText(/está abierto a todos los tipos de usuario/)).toBeTruthy();
  });
});
