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
      'Reservas',
      'Flujo Reservas',
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
        <SideMenu
          user={sessionUserFixture({ userType, isAdmin: false })}
          onNavigate={() => {}}
          onSignOut={() => {}}
        />,
      );
      expect(topLevelLabels(container)).not.toContain('Seguimiento');
      expect(topLevelLabels(container)).not.toContain('Aprobaciones');
      expect(screen.queryByText('Liquidaciones')).toBeNull();
    },
  );

  it('opens the Informes submenu when a report is the current page', () => {
    renderWithProviders(<SideMenu user={sessionUserFixture()} onNavigate={() => {}} onSignOut={() => {}} />, {
      route: '/informes/ventas',
    });
    expect(screen.getByRole('link', { name: 'Ventas' }).getAttribute('data-active')).toBe('true');
  });
});
