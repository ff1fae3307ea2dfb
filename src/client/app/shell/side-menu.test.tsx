import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders, sessionUserFixture } from '../../test/render';
import { SideMenu } from './side-menu';

function topLevelLabels(container: HTMLElement): string[] {
  return [...container.querySelectorAll('[data-menu-entry]')].map(
    (element) => element.textContent?.trim() ?? '',
  );
}

describe('SideMenu', () => {
  it('shows every entry in the order of the spec to an administrator', () => {
    const { container } = renderWithProviders(
      <SideMenu user={sessionUserFixture()} onNavigate={() => {}} onSignOut={() => {}} />,
    );
    expect(topLevelLabels(container)).toEqual([
      'Clientes',
      'Cotizaciones',
      'Reservas',
      'Flujo Reservas',
      'Disponibilidad',
      'Seguimiento',
      'Aprobaciones',
      'Brokers',
      'Pagos',
      'Informes',
      'Configuración',
      'Cerrar Sesión',
    ]);
  });

  it.each(['KAM', 'Gestor de Pagos', 'Supervisor', 'Operaciones'] as const)(
    'hides Seguimiento and Aprobaciones from a %s user',
    (userType) => {
      const { container } = renderWithProviders(
        <SideMenu user={sessionUserFixture({ userType })} onNavigate={() => {}} onSignOut={() => {}} />,
      );
      expect(topLevelLabels(container)).not.toContain('Seguimiento');
      expect(topLevelLabels(container)).not.toContain('Aprobaciones');
      expect(screen.queryByText('Liquidaciones')).toBeNull();
    },
  );

  it('marks the current entry without a chevron: only entries with a submenu show one', () => {
    const { container } = renderWithProviders(
      <SideMenu user={sessionUserFixture()} onNavigate={() => {}} onSignOut={() => {}} />,
      { route: '/flujo-reservas/00000000-0000-4000-8000-000000000001' },
    );
    const current = screen.getByRole('link', { name: 'Flujo Reservas' });
    expect(current.getAttribute('data-active')).toBe('true');
    expect(current.querySelector('svg.tabler-icon-chevron-right, [class*="chevron"]')).toBeNull();
    expect(current.querySelectorAll('svg')).toHaveLength(1);
    // The entries that open a submenu keep theirs.
    const withSubmenu = [...container.querySelectorAll('button[data-menu-entry]')].filter((entry) =>
      ['Aprobaciones', 'Informes'].includes(entry.textContent?.trim() ?? ''),
    );
    expect(withSubmenu).toHaveLength(2);
    for (const entry of withSubmenu) expect(entry.querySelectorAll('svg').length).toBeGreaterThan(1);
  });

  it('opens the Informes submenu when a report is the current page', () => {
    renderWithProviders(<SideMenu user={sessionUserFixture()} onNavigate={() => {}} onSignOut={() => {}} />, {
      route: '/informes/ventas',
    });
    expect(screen.getByRole('link', { name: 'Ventas' }).getAttribute('data-active')).toBe('true');
  });
});
