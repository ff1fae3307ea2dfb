import { NativeSelect, Tabs } from '@mantine/core';
import type { ReactNode } from 'react';
import { useNavigate, useParams } from 'react-router';
import { errorCatalog } from '../../../shared/errors';
import { type Action, can } from '../../../shared/permissions';
import { paths, SETTINGS_TABS, type SettingsTab } from '../../app/paths';
import { NotFoundPage } from '../../app/route-error';
import { ErrorAlert } from '../../components/error-alert';
import { PageHeader } from '../../components/page-header';
import { useCurrentUser } from '../../lib/session';
import { AuditSection } from '../audit';
import { BackupsSection } from '../backups';
import { DataRequestsSection } from '../data-requests';
import { DocumentTypesSection } from '../documents';
import { ImportsSection } from '../imports';
import { MailSection } from '../mail';
import { PaymentSettingsSection } from '../payment-batches';
import { UfValuesSection } from '../uf-values';
import { AgenciesSection } from './agencies-section';
import { PaymentFlowSection } from './payment-flow-section';
import { PermissionsSection } from './permissions-section';
import { ProjectsSection } from './projects-section';
import { SaleFlowSection } from './sale-flow-section';
import { UsersSection } from './users-section';

/** The tabs' labels, in the order of SETTINGS_TABS (spec part 2 §2 "Settings"). */
export const SETTINGS_TAB_LABELS: Record<SettingsTab, string> = {
  proyectos: 'Proyectos',
  inmobiliarias: 'Inmobiliarias',
  usuarios: 'Usuarios',
  'flujo-venta': 'Configuración Flujo Venta',
  'flujo-pago': 'Configuración Flujo Pago',
  permisos: 'Permisos',
  auditoria: 'Auditoría',
  'solicitudes-titulares': 'Solicitudes de titulares',
  correos: 'Correos',
  importar: 'Importar',
  'valores-uf': 'Valores UF',
  respaldos: 'Respaldos',
  documentos: 'Documentos',
  pagos: 'Pagos',
};

/** The tabs only some users see, and what they need. */
const TAB_PERMISSIONS: Partial<Record<SettingsTab, Action>> = {
  // Granting and withdrawing actions (decision 0061).
  permisos: 'permissions.manage',
  auditoria: 'audit.read',
  'solicitudes-titulares': 'dataRequests.manage',
  correos: 'mail.manage',
  importar: 'imports.manage',
  'valores-uf': 'ufValues.manage',
  respaldos: 'backups.manage',
  documentos: 'documentTypes.manage',
  // Configuración → Pagos: the payments team reads it; who changes it is the server's `canEdit` (issue 53).
  pagos: 'paymentBatches.manage',
};

export function isSettingsTab(value: string | undefined): value is SettingsTab {
  return (SETTINGS_TABS as readonly (string | undefined)[]).includes(value);
}

const SECTIONS: Record<SettingsTab, () => ReactNode> = {
  proyectos: () => <ProjectsSection />,
  inmobiliarias: () => <AgenciesSection />,
  usuarios: () => <UsersSection />,
  'flujo-venta': () => <SaleFlowSection />,
  'flujo-pago': () => <PaymentFlowSection />,
  permisos: () => <PermissionsSection />,
  auditoria: () => <AuditSection />,
  'solicitudes-titulares': () => <DataRequestsSection />,
  correos: () => <MailSection />,
  importar: () => <ImportsSection />,
  'valores-uf': () => <UfValuesSection />,
  respaldos: () => <BackupsSection />,
  documentos: () => <DocumentTypesSection />,
  pagos: () => <PaymentSettingsSection />,
};

/**
 * /configuracion/{tab}: the tab is in the address, so a reload or a shared link opens it; each
 * list keeps its search and page in the query string. Changing tab starts the other list afresh.
 */
export default function SettingsPage() {
  const { tab } = useParams();
  const navigate = useNavigate();
  const user = useCurrentUser();
  const tabs = SETTINGS_TABS.filter((value) => {
    const needs = TAB_PERMISSIONS[value];
    return !needs || can(user, needs);
  });
  if (!isSettingsTab(tab)) return <NotFoundPage />;
  const select = (next: string | null) => {
    if (isSettingsTab(next ?? undefined) && next !== tab) navigate(paths.settingsTab(next as SettingsTab));
  };

  return (
    <>
      <PageHeader title="Configuración" />
      <Tabs value={tab} onChange={select} keepMounted={false}>
        {/*
          On a phone eight tabs do not fit and a sideways scroll hid half of them without a hint: a
          select names the tab shown and lists them all. Wider, the tabs wrap rather than hide.
        */}
        <NativeSelect
          hiddenFrom="sm"
          mb="lg"
          label="Sección"
          data={tabs.map((value) => ({ value, label: SETTINGS_TAB_LABELS[value] }))}
          value={tab}
          onChange={(event) => select(event.currentTarget.value)}
        />
        <Tabs.List mb="lg" visibleFrom="sm">
          {tabs.map((value) => (
            <Tabs.Tab key={value} value={value} data-tab={value}>
              {SETTINGS_TAB_LABELS[value]}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {tabs.includes(tab) ? (
          <Tabs.Panel value={tab}>{SECTIONS[tab]()}</Tabs.Panel>
        ) : (
          // A tab this user may not see (a shared link): why, instead of its contents.
          <ErrorAlert error={errorCatalog.FORBIDDEN.message} />
        )}
      </Tabs>
    </>
  );
}
