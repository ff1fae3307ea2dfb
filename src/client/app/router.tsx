import type { ComponentType } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { connection } from '../lib/connection';
import { PublicOnly, RequireSession } from './guards';
import { paths } from './paths';
import { NotFoundPage, RouteError } from './route-error';
import { AppLayout } from './shell/app-layout';

/**
 * A screen loaded on demand: every page module default-exports its component. A load that fails
 * while the server is unreachable waits for it to answer again (the banner says so) and tries
 * again; one that fails while the server answers is a new version (RouteError says so).
 */
function page(load: () => Promise<{ default: ComponentType }>): Pick<RouteObject, 'lazy'> {
  return { lazy: async () => ({ Component: (await loadScreen(load)).default }) };
}

async function loadScreen<T>(load: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await load();
    } catch (error) {
      const answers = await connection.check();
      if (answers && attempt > 1) throw error;
      await connection.whenOnline();
    }
  }
}

export const routes: RouteObject[] = [
  {
    errorElement: <RouteError />,
    children: [
      // The brokers' portal (decision 0069): its own session, none of the staff's guards or shell.
      { path: paths.portal, ...page(() => import('../features/portal/portal-login-page')) },
      { path: paths.portalPassword, ...page(() => import('../features/portal/portal-password-page')) },
      { path: paths.portalHome, ...page(() => import('../features/portal/portal-operations-page')) },
      {
        element: <PublicOnly />,
        children: [
          { path: paths.login, ...page(() => import('../features/auth/login-page')) },
          { path: paths.register, ...page(() => import('../features/auth/register-page')) },
        ],
      },
      {
        element: <RequireSession />,
        children: [
          {
            element: <AppLayout />,
            children: [
              // Errors of a screen (and unknown addresses) show inside the shell, menu included.
              {
                errorElement: <RouteError />,
                children: [
                  { index: true, element: <Navigate to={paths.dashboard} replace /> },
                  { path: paths.dashboard, ...page(() => import('../features/dashboard/dashboard-page')) },
                  {
                    path: paths.notifications,
                    ...page(() => import('../features/notifications/notifications-page')),
                  },
                  { path: paths.quotes, ...page(() => import('../features/quotes/quotes-list-page')) },
                  { path: paths.newQuote, ...page(() => import('../features/quotes/new-quote-page')) },
                  { path: paths.quote(':id'), ...page(() => import('../features/quotes/quote-page')) },
                  {
                    path: paths.reservations,
                    ...page(() => import('../features/reservations/reservations-list-page')),
                  },
                  {
                    path: paths.newReservation,
                    ...page(() => import('../features/reservations/new-reservation-page')),
                  },
                  {
                    path: paths.editReservation(':id'),
                    ...page(() => import('../features/reservations/edit-reservation-page')),
                  },
                  {
                    path: paths.reservationDocuments(':id'),
                    ...page(() => import('../features/documents/documents-page')),
                  },
                  { path: paths.clients, ...page(() => import('../features/clients/clients-page')) },
                  { path: paths.newClient, ...page(() => import('../features/clients/client-form-page')) },
                  {
                    path: paths.editClient(':id'),
                    ...page(() => import('../features/clients/client-form-page')),
                  },
                  {
                    path: paths.reservationFlows,
                    ...page(() => import('../features/sale-flows/sale-flows-page')),
                  },
                  {
                    path: paths.reservationFlow(':id'),
                    ...page(() => import('../features/sale-flows/sale-flow-page')),
                  },
                  { path: paths.availability, ...page(() => import('../features/stock/availability-page')) },
                  { path: paths.followUp, ...page(() => import('../features/notifications/follow-up-page')) },
                  { path: paths.approvals, element: <Navigate to={paths.settlementApprovals} replace /> },
                  { path: paths.brokers, ...page(() => import('../features/brokers/brokers-page')) },
                  { path: paths.newBroker, ...page(() => import('../features/brokers/broker-form-page')) },
                  {
                    path: paths.editBroker(':id'),
                    ...page(() => import('../features/brokers/broker-form-page')),
                  },
                  { path: paths.payments, ...page(() => import('../features/payments/payments-page')) },
                  { path: paths.paymentFlows, element: <Navigate to={paths.payments} replace /> },
                  {
                    path: paths.paymentBatches,
                    ...page(() => import('../features/payment-batches/payment-batches-page')),
                  },
                  {
                    path: paths.paymentBatch(':id'),
                    ...page(() => import('../features/payment-batches/payment-batch-page')),
                  },
                  {
                    path: paths.paymentFlow(':flowId'),
                    ...page(() => import('../features/payments/payment-flow-page')),
                  },
                  {
                    path: paths.commission(':reservationId'),
                    ...page(() => import('../features/payments/commission-page')),
                  },
                  { path: paths.reports, element: <Navigate to={paths.commissionReport} replace /> },
                  {
                    path: paths.commissionReport,
                    ...page(() => import('../features/reports/commission-report-page')),
                  },
                  {
                    path: paths.commissionProjectionReport,
                    ...page(() => import('../features/reports/commission-projection-page')),
                  },
                  { path: paths.salesReport, ...page(() => import('../features/reports/sales-report-page')) },
                  {
                    path: paths.overdueInstallments,
                    ...page(() => import('../features/buyer-accounts/overdue-page')),
                  },
                  {
                    path: paths.brokersReport,
                    ...page(() => import('../features/reports/brokers-report-page')),
                  },
                  {
                    path: paths.brokerPaymentsReport,
                    ...page(() => import('../features/reports/broker-payments-report-page')),
                  },
                  {
                    path: paths.brokerConsolidatedReport,
                    ...page(() => import('../features/reports/broker-consolidated-page')),
                  },
                  {
                    path: paths.settlementApprovals,
                    ...page(() => import('../features/approvals/approvals-page')),
                  },
                  {
                    path: paths.settlementApproval(':id'),
                    ...page(() => import('../features/approvals/approval-page')),
                  },
                  {
                    path: paths.settings,
                    element: <Navigate to={paths.settingsTab('proyectos')} replace />,
                  },
                  {
                    path: paths.settingsTab(':tab'),
                    ...page(() => import('../features/settings/settings-page')),
                  },
                  {
                    path: paths.dataRequest(':id'),
                    ...page(() => import('../features/data-requests/data-request-page')),
                  },
                  {
                    path: paths.newSettingsRecord(':tab'),
                    ...page(() => import('../features/settings/settings-form-page')),
                  },
                  {
                    path: paths.editSettingsRecord(':tab', ':id'),
                    ...page(() => import('../features/settings/settings-form-page')),
                  },
                  { path: '*', element: <NotFoundPage /> },
                ],
              },
            ],
          },
        ],
      },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routes);
}
