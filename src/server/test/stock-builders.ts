import { expect } from 'vitest';
import type { UnitGrid, UnitView } from '../../shared/schemas/stock';
import { type Agent, loginAs, type TestContext } from './app';
import { createClient, createProject } from './builders';

/** A unit created through the API, as an administrator does on a project's 'Unidades' tab. */
export async function addUnit(
  admin: Agent,
  projectId: string,
  body: Record<string, unknown>,
): Promise<UnitView> {
  const response = await admin.post(`/api/stock/projects/${projectId}/units`, body);
  expect(response.statusCode, response.body).toBe(201);
  return (response.json() as { unit: UnitView }).unit;
}

/** A project's Disponibilidad as `agent` reads it (`query`: the filters, e.g. '?kind=parking'). */
export async function gridOf(agent: Agent, projectId: string, query = ''): Promise<UnitGrid> {
  const response = await agent.get(`/api/stock/projects/${projectId}/units${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as UnitGrid;
}

/**
 * The stock tests' cast: an administrator, a seller (Sara Vende), a project without units yet
 * (Parque Ñuñoa, Etapa 1) and a client (Juan Pérez).
 */
export async function stockScene(ctx: TestContext) {
  const admin = await loginAs(ctx);
  const seller = await loginAs(ctx, {
    userType: 'KAM',
    isSeller: true,
    firstName: 'Sara',
    lastName: 'Vende',
  });
  const project = await createProject(ctx.db, { name: 'Parque Ñuñoa', stage: 'Etapa 1' });
  const client = await createClient(ctx.db, { firstName: 'Juan', lastName: 'Pérez' });
  return { admin, seller, project, client };
}

export type StockScene = Awaited<ReturnType<typeof stockScene>>;
