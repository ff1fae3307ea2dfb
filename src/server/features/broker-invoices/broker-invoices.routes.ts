import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  brokerInvoiceAcceptanceBody,
  brokerInvoiceBody,
  brokerInvoiceXmlBody,
  flowInvoicesResponse,
  flowInvoiceTaskParams,
  invoiceTaskResponse,
} from '../../../shared/schemas/broker-invoices';
import { flowParams } from '../../../shared/schemas/workflows';
import { serviceContext } from '../../http/context';
import * as brokerInvoices from './broker-invoices.service';

/**
 * /api/payment-flows/:flowId/invoices and …/tasks/:taskId/invoice: the broker's invoice on the
 * payment task that receives it — read, recorded by hand or from the SII's XML, corrected with its
 * version, its mismatch accepted by an administrator.
 */
export const brokerInvoicesRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['broker-invoices'];
  app.get(
    '/:flowId/invoices',
    {
      config: { access: 'staff' },
      schema: { tags, params: flowParams, response: { 200: flowInvoicesResponse } },
    },
    async (request) => brokerInvoices.listOfFlow(serviceContext(request), request.params.flowId),
  );

  app.post(
    '/:flowId/tasks/:taskId/invoice',
    {
      config: { access: { policy: 'brokerInvoices.record' } },
      schema: {
        tags,
        params: flowInvoiceTaskParams,
        body: brokerInvoiceBody,
        response: { 201: invoiceTaskResponse },
      },
    },
    async (request, reply) => {
      const { flowId, taskId } = request.params;
      reply.code(201);
      return brokerInvoices.record(serviceContext(request), flowId, taskId, {
        ...request.body,
        version: undefined,
      });
    },
  );

  app.put(
    '/:flowId/tasks/:taskId/invoice',
    {
      config: { access: { policy: 'brokerInvoices.record' } },
      schema: {
        tags,
        params: flowInvoiceTaskParams,
        body: brokerInvoiceBody,
        response: { 200: invoiceTaskResponse },
      },
    },
    async (request) => {
      const { flowId, taskId } = request.params;
      // A correction names the version it read; without one there is nothing to compare: 409.
      return brokerInvoices.record(serviceContext(request), flowId, taskId, {
        ...request.body,
        version: request.body.version ?? 0,
      });
    },
  );

  app.post(
    '/:flowId/tasks/:taskId/invoice/xml',
    {
      config: { access: { policy: 'brokerInvoices.record' } },
      bodyLimit: 512 * 1024,
      schema: {
        tags,
        params: flowInvoiceTaskParams,
        body: brokerInvoiceXmlBody,
        response: { 200: invoiceTaskResponse },
      },
    },
    async (request) => {
      const { flowId, taskId } = request.params;
      return brokerInvoices.recordXml(serviceContext(request), flowId, taskId, request.body);
    },
  );

  app.post(
    '/:flowId/tasks/:taskId/invoice/acceptance',
    {
      config: { access: { action: 'brokerInvoices.accept', refusal: 'BROKER_INVOICE_ACCEPT_FORBIDDEN' } },
      schema: {
        tags,
        params: flowInvoiceTaskParams,
        body: brokerInvoiceAcceptanceBody,
        response: { 200: invoiceTaskResponse },
      },
    },
    async (request) => {
      const { flowId, taskId } = request.params;
      return brokerInvoices.acceptMismatch(serviceContext(request), flowId, taskId, request.body);
    },
  );
};
