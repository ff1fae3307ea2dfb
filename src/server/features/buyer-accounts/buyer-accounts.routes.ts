import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  buyerAccountResponse,
  buyerPaymentBody,
  buyerPlanBody,
  buyerReversalBody,
  overduePage,
  overdueQuery,
  paymentParams,
  pieWaiverBody,
} from '../../../shared/schemas/buyer-accounts';
import { idParams } from '../../../shared/schemas/common';
import { sendExport } from '../../exports';
import { sendPdf } from '../../http/content-disposition';
import { serviceContext } from '../../http/context';
import * as buyerAccounts from './buyer-accounts.service';
import { STATEMENT_COLUMNS, statementRows } from './statement';

const tags = ['buyer-accounts'];

/** Registered under /api/reservations: a reservation's buyer account (decision 0073). */
export const buyerAccountRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/:id/account',
    {
      config: { access: 'staff' },
      schema: { tags, params: idParams, response: { 200: buyerAccountResponse } },
    },
    async (request) => ({ account: await buyerAccounts.account(serviceContext(request), request.params.id) }),
  );

  app.post(
    '/:id/account/plan',
    {
      config: { access: { action: 'buyerAccounts.plan' } },
      schema: { tags, params: idParams, body: buyerPlanBody, response: { 201: buyerAccountResponse } },
    },
    async (request, reply) => {
      const account = await buyerAccounts.createPlan(
        serviceContext(request),
        request.params.id,
        request.body,
      );
      reply.code(201);
      return { account };
    },
  );

  app.post(
    '/:id/account/payments',
    {
      config: { access: { action: 'buyerAccounts.payments' } },
      schema: { tags, params: idParams, body: buyerPaymentBody, response: { 201: buyerAccountResponse } },
    },
    async (request, reply) => {
      const account = await buyerAccounts.recordPayment(
        serviceContext(request),
        request.params.id,
        request.body,
      );
      reply.code(201);
      return { account };
    },
  );

  app.post(
    '/:id/account/payments/:paymentId/reversal',
    {
      config: { access: { action: 'buyerAccounts.payments' } },
      schema: {
        tags,
        params: paymentParams,
        body: buyerReversalBody,
        response: { 200: buyerAccountResponse },
      },
    },
    async (request) => ({
      account: await buyerAccounts.reversePayment(
        serviceContext(request),
        request.params.id,
        request.params.paymentId,
        request.body,
      ),
    }),
  );

  app.post(
    '/:id/account/pie-waiver',
    {
      config: { access: { action: 'buyerAccounts.waivePie' } },
      schema: { tags, params: idParams, body: pieWaiverBody, response: { 200: buyerAccountResponse } },
    },
    async (request) => ({
      account: await buyerAccounts.waivePie(serviceContext(request), request.params.id, request.body),
    }),
  );
};

/** The buyer's statement (decision 0073): a PDF opened in a tab of its own, and an XLSX download. */
export const buyerStatementRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/:id/account/statement.pdf',
    { config: { access: 'staff', heavy: 'pdf' }, schema: { tags, params: idParams } },
    async (request, reply) => {
      const pdf = await buyerAccounts.statementPdfOf(serviceContext(request), request.params.id);
      return sendPdf(reply, pdf);
    },
  );

  app.get(
    '/:id/account/statement.xlsx',
    { config: { access: 'staff' }, schema: { tags, params: idParams } },
    async (request, reply) => {
      const { heading, plan } = await buyerAccounts.statementOf(serviceContext(request), request.params.id);
      async function* chunks() {
        yield statementRows(plan);
      }
      return sendExport(reply, {
        format: 'xlsx',
        fileName: `estado-de-cuenta-${heading.reservationNumber}`,
        sheetName: 'Estado de cuenta',
        columns: STATEMENT_COLUMNS,
        chunks: chunks(),
      });
    },
  );
};

/** /api/buyer-accounts/overdue: 'Cuotas vencidas' across the reservations, filtered by project and seller. */
export const buyerAccountsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/overdue',
    {
      config: { access: 'staff' },
      schema: { tags, querystring: overdueQuery, response: { 200: overduePage } },
    },
    async (request) => buyerAccounts.overdue(serviceContext(request), request.query),
  );
};
