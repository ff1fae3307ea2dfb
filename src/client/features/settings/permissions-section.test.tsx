import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ACTION_LABELS, ACTION_NAMES, ACTIONS, holdersOf, USER_TYPES } from '../../../shared/permissions';
import { policyDescriptions, taskRuleDescriptions } from '../../../shared/permissions-text';
import type { PermissionsResponse } from '../../../shared/schemas/permissions';
import { renderWithProviders } from '../../test/render';
import { FIXED_LABEL, PermissionsSection } from './permissions-section';

afterEach(() => vi.unstubAllGlobals());

/** The server's answer with the catalogue's defaults, `extra` holders added to an action. */
function answer(extra: Partial<Record<string, string[]>> = {}): PermissionsResponse {
  return {
    userTypes: [...USER_TYPES],
    actions: ACTION_NAMES.map((action) => ({
      action,
      label: ACTION_LABELS[action],
      fixed: ACTIONS[action].fixed,
      defaultHolders: [...ACTIONS[action].holders],
      holders: USER_TYPES.filter(
        (userType) => holdersOf(action).includes(userType) || (extra[action] ?? []).includes(userType),
      ),
    })),
  };
}

function stubApi() {
  const fetchMock = vi.fn(async (_url: string, init?: RequestInit) => ({
    ok: true,
    status: 200,
    json: async () => (init?.method === 'PUT' ? answer({ 'audit.read': ['KAM'] }) : answer()),
  }));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('PermissionsSection', () => {
  it('draws a row per action and a switch per user type, as the server answers', async () => {
    stubApi();
    renderWithProviders(<PermissionsSection />);
    const table = await screen.findByRole('table', { name: 'Permisos por tipo de usuario' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((header) => header.textContent);
    expect(headers).toEqual(['Acción', ...USER_TYPES]);
    const rows = table.querySelectorAll('tbody tr');
    expect(rows).toHaveLength(ACTION_NAMES.length);
    const audit = table.querySelector('tr[data-action="audit.read"]') as HTMLElement;
    const adminSwitch = within(audit).getByRole('switch', {
      name: `${ACTION_LABELS['audit.read']} — Administrador`,
    });
    expect((adminSwitch as HTMLInputElement).checked).toBe(true);
    const kamSwitch = within(audit).getByRole('switch', { name: `${ACTION_LABELS['audit.read']} — KAM` });
    expect((kamSwitch as HTMLInputElement).checked).toBe(false);
    expect((kamSwitch as HTMLInputElement).disabled).toBe(false);
  });

  it('locks the actions the spec fixes and says so', async () => {
    stubApi();
    renderWithProviders(<PermissionsSection />);
    const table = await screen.findByRole('table', { name: 'Permisos por tipo de usuario' });
    const row = table.querySelector('tr[data-action="users.manage"]') as HTMLElement;
    expect(within(row).getByText(FIXED_LABEL)).toBeTruthy();
    for (const input of within(row).getAllByRole('switch'))
      expect((input as HTMLInputElement).disabled).toBe(true);
    expect(within(row).getAllByRole('img', { name: FIXED_LABEL })).toHaveLength(USER_TYPES.length);
  });

  it('saves a switch at once and redraws from the server’s answer', async () => {
    const fetchMock = stubApi();
    renderWithProviders(<PermissionsSection />);
    const table = await screen.findByRole('table', { name: 'Permisos por tipo de usuario' });
    const audit = table.querySelector('tr[data-action="audit.read"]') as HTMLElement;
    fireEvent.click(within(audit).getByRole('switch', { name: `${ACTION_LABELS['audit.read']} — KAM` }));
    await waitFor(() =>
      expect(fetchMock).toHaveBeenCalledWith(
        '/api/settings/permissions/audit.read/KAM',
        expect.objectContaining({ method: 'PUT', body: JSON.stringify({ granted: true }) }),
      ),
    );
    await waitFor(() =>
      expect(
        (
          within(audit).getByRole('switch', {
            name: `${ACTION_LABELS['audit.read']} — KAM`,
          }) as HTMLInputElement
        ).checked,
      ).toBe(true),
    );
  });

  it('lists the record-level rules and says everything else is open to everyone', async () => {
    stubApi();
    renderWithProviders(<PermissionsSection />);
    await screen.findByRole('table', { name: 'Permisos por tipo de usuario' });
    for (const description of [...Object.values(policyDescriptions), ...taskRuleDescriptions]) {
      expect(screen.getByText(description)).toBeTruthy();
    }
    expect(screen.getByText(/está abierto a todos los tipos de usuario/)).toBeTruthy();
  });
});
