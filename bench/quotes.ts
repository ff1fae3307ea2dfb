// Cotizaciones (issue 59, decision 0071) for `npm run bench`: a quote created through the API (an
// apartment of the stock's free ones, priced from the list in force at today's UF), the list's first
// page and the list searched by a prospect's name. Quotes hold no unit, so the creations may repeat
// apartments; they run before the stock's reservation run takes them.
import type { RequestSpec } from 'autocannon';
import type { StockTargets } from './stock';

function quoteBody(apartment: StockTargets['freeApartments'][number], index: number) {
  return JSON.stringify({
    projectId: apartment.projectId,
    prospectName: `Prospecto Bench ${index}`,
    prospectEmail: `prospecto.bench.${index}@example.cl`,
    apartmentUnitId: apartment.unitId,
    reservationAmount: '10',
    downPaymentFraction: '0.2',
    installments: 6,
  });
}

/** The endpoints to measure (in `bench/run.ts`'s shape); none without stock. */
export function quoteEndpoints(targets: StockTargets | null) {
  if (!targets) return [];
  const free = targets.freeApartments;
  // From the end of the free apartments: the stock's reservation run takes them from the start.
  const apartment = (index: number) => free[free.length - 1 - (index % Math.min(free.length, 200))]!;
  let next = 1;
  const create: RequestSpec = {
    method: 'POST',
    path: '/api/quotes',
    setupRequest: (request) => {
      next += 1;
      return { ...request, body: quoteBody(apartment(next), next) };
    },
  };
  return [
    {
      key: 'quoteCreate',
      label: 'quotes: a quote created (priced on the server)',
      method: 'POST' as const,
      path: '/api/quotes',
      target: 30,
      body: quoteBody(apartment(0), 0),
      requests: [create],
    },
    {
      key: 'quoteList',
      label: 'quotes: list, first page with the counts per state',
      method: 'GET' as const,
      path: '/api/quotes?page=1&pageSize=25',
      target: 25,
    },
    {
      key: 'quoteSearch',
      label: 'quotes: list searched by prospect',
      method: 'GET' as const,
      path: `/api/quotes?search=${encodeURIComponent('Bench 12')}`,
      target: 25,
    },
  ];
}
