import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { unitKindLabels } from '../../../shared/domain/stock';
import { santiagoDateOf } from '../../../shared/format';
import type { UnitGrid } from '../../../shared/schemas/stock';
import {
  blockUnitBody,
  policyBody,
  policyResponse,
  priceFileBody,
  priceFileResponse,
  priceListBody,
  priceListDiffResponse,
  priceListHistory,
  priceListResponse,
  projectParams,
  stockProjects,
  UNIT_EXPORT_COLUMNS,
  unblockUnitBody,
  unitFields,
  unitGrid,
  unitGridExportQuery,
  unitGridQuery,
  unitParams,
  unitPickerQuery,
  unitPickerResponse,
  unitResponse,
  updateUnitBody,
} from '../../../shared/schemas/stock';
import { sendExport } from '../../exports';
import { serviceContext } from '../../http/context';
import { GridCache } from './grid-cache';
import * as stock from './stock.service';

const tags = ['stock'];

/** Stock (decision 0032): Disponibilidad for every user; units, prices and policy for administrators. */
export const stockRoutes: FastifyPluginAsyncZod = async (app) => {
  // This instance's Disponibilidad answers, checked against the database on every request.
  const grids = new GridCache();

  app.get(
    '/projects',
    { config: { access: 'staff' }, schema: { tags, response: { 200: stockProjects } } },
    async (request) => stock.projects(serviceContext(request)),
  );

  app.get(
    '/projects/:projectId/units',
    {
      config: { access: 'staff' },
      schema: { tags, params: projectParams, querystring: unitGridQuery, response: { 200: unitGrid } },
    },
    async (request, reply) => {
      const json = await stock.gridJson(
        serviceContext(request),
        grids,
        request.params.projectId,
        request.query,
      );
      // The schema documents the answer; the service checked it and wrote it (kept per project), and
      // Fastify sends bytes as they are, without serializing them again.
      return reply.type('application/json; charset=utf-8').send(json as unknown as UnitGrid);
    },
  );

  app.get(
    '/projects/:projectId/units/export',
    {
      config: { access: { action: 'reports.export' }, heavy: 'export' },
      schema: { tags, params: projectParams, querystring: unitGridExportQuery },
    },
    async (request, reply) => {
      const ctx = serviceContext(request);
      const { format, ...filters } = request.query;
      const grid = await stock.grid(ctx, request.params.projectId, filters);
      const rows = grid.units.map((unit) => ({
        ...unit,
        kind: unitKindLabels[unit.kind],
        reservationNumber: unit.reservation?.reservationNumber ?? null,
        clientName: unit.reservation?.clientName ?? null,
        sellerName: unit.reservation?.sellerName ?? null,
      }));
      return sendExport(reply, {
        format,
        fileName: `disponibilidad_${grid.project.name}_${grid.project.stage}_${santiagoDateOf(ctx.now)}`,
        sheetName: 'Disponibilidad',
        columns: UNIT_EXPORT_COLUMNS,
        chunks: (async function* () {
          yield rows;
        })(),
      });
    },
  );

  app.get(
    '/projects/:projectId/picker',
    {
      config: { access: 'staff' },
      schema: {
        tags,
        params: projectParams,
        querystring: unitPickerQuery,
        response: { 200: unitPickerResponse },
      },
    },
    async (request) =>
      stock.picker(
        serviceContext(request),
        request.params.projectId,
        request.query.kind,
        request.query.search,
      ),
  );

  app.post(
    '/projects/:projectId/units',
    {
      config: { access: { action: 'stock.manage' } },
      schema: { tags, params: projectParams, body: unitFields, response: { 201: unitResponse } },
    },
    async (request, reply) => {
      const unit = await stock.createUnit(serviceContext(request), request.params.projectId, request.body);
      return reply.status(201).send({ unit });
    },
  );

  app.put(
    '/units/:id',
    {
      config: { access: { action: 'stock.manage' } },
      schema: { tags, params: unitParams, body: updateUnitBody, response: { 200: unitResponse } },
    },
    async (request) => ({
      unit: await stock.updateUnit(serviceContext(request), request.params.id, request.body),
    }),
  );

  app.post(
    '/units/:id/block',
    {
      config: { access: { action: 'stock.manage' } },
      schema: { tags, params: unitParams, body: blockUnitBody, response: { 200: unitResponse } },
    },
    async (request) => ({
      unit: await stock.blockUnit(
        serviceContext(request),
        request.params.id,
        request.body.reason,
        request.body.version,
      ),
    }),
  );

  app.post(
    '/units/:id/unblock',
    {
      config: { access: { action: 'stock.manage' } },
      schema: { tags, params: unitParams, body: unblockUnitBody, response: { 200: unitResponse } },
    },
    async (request) => ({
      unit: await stock.unblockUnit(serviceContext(request), request.params.id, request.body.version),
    }),
  );

  app.get(
    '/projects/:projectId/price-lists',
    {
      config: { access: 'staff' },
      schema: { tags, params: projectParams, response: { 200: priceListHistory } },
    },
    async (request) => stock.priceLists(serviceContext(request), request.params.projectId),
  );

  app.post(
    '/projects/:projectId/price-lists/read',
    {
      config: { access: { action: 'stock.manage' } },
      schema: { tags, params: projectParams, body: priceFileBody, response: { 200: priceFileResponse } },
    },
    async (request) =>
      stock.readPriceListFile(serviceContext(request), request.params.projectId, request.body.contentBase64),
  );

  app.post(
    '/projects/:projectId/price-lists/preview',
    {
      config: { access: { action: 'stock.manage' } },
      schema: { tags, params: projectParams, body: priceListBody, response: { 200: priceListDiffResponse } },
    },
    async (request) => ({
      diff: await stock.previewPriceList(serviceContext(request), request.params.projectId, request.body),
    }),
  );

  app.post(
    '/projects/:projectId/price-lists',
    {
      config: { access: { action: 'stock.manage' } },
      schema: { tags, params: projectParams, body: priceListBody, response: { 201: priceListResponse } },
    },
    async (request, reply) => {
      const applied = await stock.applyPriceList(
        serviceContext(request),
        request.params.projectId,
        request.body,
      );
      return reply.status(201).send(applied);
    },
  );

  app.get(
    '/projects/:projectId/policy',
    {
      config: { access: 'staff' },
      schema: { tags, params: projectParams, response: { 200: policyResponse } },
    },
    async (request) => ({ policy: await stock.policy(serviceContext(request), request.params.projectId) }),
  );

  app.put(
    '/projects/:projectId/policy',
    {
      config: { access: { action: 'stock.manage' } },
      schema: { tags, params: projectParams, body: policyBody, response: { 200: policyResponse } },
    },
    async (request) => ({
      policy: await stock.savePolicy(serviceContext(request), request.params.projectId, request.body),
    }),
  );
};
