/**
 * What the access gate of issue 56 costs a request (decision 0060): the same trivial route on a bare
 * Fastify, with a stand-in session hook, without and with the gate, declared as an action the user
 * holds. Alternating rounds, the median of each. `npx tsx bench/access-gate.ts`.
 */
import { performance } from 'node:perf_hooks';
import Fastify, { type FastifyInstance } from 'fastify';
import { registerAccessGate } from '../src/server/http/access';
import { actionsOf } from '../src/shared/permissions';

const REQUESTS = 5_000;
const ROUNDS = 7;

async function appWith(gate: boolean): Promise<FastifyInstance> {
  const app = Fastify();
  const user = { actions: actionsOf('Gestor de Pagos') };
  app.decorateRequest('user', null);
  app.addHook('onRequest', async (request) => {
    request.user = user as never;
  });
  if (gate) registerAccessGate(app);
  app.get('/api/payment-batches', { config: { access: { action: 'paymentBatches.manage' } } }, async () => ({
    rows: [],
  }));
  await app.ready();
  return app;
}

async function microsPerRequest(app: FastifyInstance): Promise<number> {
  const started = performance.now();
  for (let index = 0; index < REQUESTS; index += 1)
    await app.inject({ method: 'GET', url: '/api/payment-batches' });
  return ((performance.now() - started) * 1000) / REQUESTS;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const without = await appWith(false);
const withGate = await appWith(true);
await microsPerRequest(without);
await microsPerRequest(withGate);
const plain: number[] = [];
const gated: number[] = [];
for (let round = 0; round < ROUNDS; round += 1) {
  plain.push(await microsPerRequest(without));
  gated.push(await microsPerRequest(withGate));
}
console.log(
  JSON.stringify({
    requests: REQUESTS * ROUNDS,
    withoutGateMicros: Number(median(plain).toFixed(1)),
    withGateMicros: Number(median(gated).toFixed(1)),
    gateCostMicros: Number((median(gated) - median(plain)).toFixed(1)),
  }),
);
await without.close();
await withGate.close();
