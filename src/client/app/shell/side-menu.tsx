import { Box, Divider, NavLink, Stack } from '@mantine/core';
import {
  IconBuildingSkyscraper,
  IconCash,
  IconChecklist,
  IconFileAnalytics,
  IconFileDollar,
  IconGitBranch,
  IconLayoutGrid,
  IconLogout,
  IconSettings,
  IconThumbUp,
  IconUserDollar,
  IconUsers,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { type Action, can } from '../../../shared/permissions';
import type { SessionUser } from '../../../shared/schemas/auth';
import { paths } from '../paths';

interface MenuEntry {
  label: string;
  to: string;
  icon: ReactNode;
  /** Shown only to users who may take this action (shared/permissions.ts). */
  requires?: Action;
  children?: { label: string; to: string; requires?: Action }[];
}

const ICON = { size: 18, stroke: 1.6 };

/** The side menu of spec part 1 §2, in its order. Seguimiento and Aprobaciones only for administrators. */
export const MENU: MenuEntry[] = [
  { label: 'Clientes', to: paths.clients, icon: <IconUsers {...ICON} /> },
  { label: 'Cotizaciones', to: paths.quotes, icon: <IconFileDollar {...ICON} /> },
  { label: 'Reservas', to: paths.reservations, icon: <IconBuildingSkyscraper {...ICON} /> },
  { label: 'Flujo Reservas', to: paths.reservationFlows, icon: <IconGitBranch {...ICON} /> },
  { label: 'Disponibilidad', to: paths.availability, icon: <IconLayoutGrid {...ICON} /> },
  { label: 'Seguimiento', to: paths.followUp, icon: <IconChecklist {...ICON} />, requires: 'menu.followUp' },
  {
    label: 'Aprobaciones',
    to: paths.approvals,
    icon: <IconThumbUp {...ICON} />,
    requires: 'menu.approvals',
    children: [{ label: 'Liquidaciones', to: paths.settlementApprovals }],
  },
  { label: 'Brokers', to: paths.brokers, icon: <IconUserDollar {...ICON} /> },
  { label: 'Pagos', to: paths.payments, icon: <IconCash {...ICON} /> },
  {
    label: 'Informes',
    to: paths.reports,
    icon: <IconFileAnalytics {...ICON} />,
    children: [
      { label: 'Comisiones', to: paths.commissionReport },
      { label: 'Proyección Comisiones', to: paths.commissionProjectionReport },
      { label: 'Ventas', to: paths.salesReport },
      { label: 'Brokers', to: paths.brokersReport },
      { label: 'Pagos Brokers', to: paths.brokerPaymentsReport, requires: 'reports.brokerPayments' },
      { label: 'Consolidado Brokers', to: paths.brokerConsolidatedReport },
      { label: 'Cuotas vencidas', to: paths.overdueInstallments },
    ],
  },
];

function isActive(pathname: string, to: string): boolean {
  return pathname === to || pathname.startsWith(`${to}/`);
}

export function SideMenu({
  user,
  onNavigate,
  onSignOut,
}: {
  user: SessionUser;
  onNavigate: () => void;
  onSignOut: () => void;
}) {
  const { pathname } = useLocation();
  const entries = MENU.filter((entry) => !entry.requires || can(user, entry.requires));
  return (
    // A plain scrolling box: Mantine's ScrollArea would bring floating-ui into every screen's first load.
    <Box component="nav" aria-label="Menú principal" style={{ flex: 1, overflowY: 'auto' }}>
      <Stack gap={2} p="xs">
        {entries.map((entry) =>
          entry.children ? (
            <NavLink
              key={entry.label}
              data-menu-entry
              // A button, so Tab reaches it and Enter or Space opens its submenu.
              component="button"
              type="button"
              label={entry.label}
              leftSection={entry.icon}
              childrenOffset={28}
              defaultOpened={entry.children.some((child) => isActive(pathname, child.to))}
              active={entry.children.some((child) => isActive(pathname, child.to))}
              variant="subtle"
            >
              {entry.children
                .filter((child) => !child.requires || can(user, child.requires))
                .map((child) => (
                  <NavLink
                    key={child.to}
                    component={Link}
                    to={child.to}
                    label={child.label}
                    active={isActive(pathname, child.to)}
                    onClick={onNavigate}
                  />
                ))}
            </NavLink>
          ) : (
            <NavLink
              key={entry.label}
              data-menu-entry
              component={Link}
              to={entry.to}
              label={entry.label}
              leftSection={entry.icon}
              // No chevron: in this menu a chevron says an entry opens a submenu.
              active={isActive(pathname, entry.to)}
              onClick={onNavigate}
            />
          ),
        )}
        <Divider my="sm" />
        <NavLink
          data-menu-entry
          component={Link}
          to={paths.settings}
          label="Configuración"
          leftSection={<IconSettings {...ICON} />}
          active={isActive(pathname, paths.settings)}
          onClick={onNavigate}
        />
        <NavLink
          data-menu-entry
          component="button"
          label="Cerrar Sesión"
          leftSection={<IconLogout {...ICON} />}
          onClick={onSignOut}
          c="red"
        />
      </Stack>
    </Box>
  );
}
