// The stock's query keys apart from their fetchers: the live updates in the shell import them, and
// api.ts (with its fetchers and hooks) stays in the screens' chunks (decision 0005).
import type { UnitKind } from '../../../shared/domain/stock';
import type { UnitGridQuery } from '../../../shared/schemas/stock';

/** Every stock query starts with 'stock': a live flow change refreshes them all (notifications/api.ts). */
export const stockKeys = {
  all: ['stock'] as const,
  projects: ['stock', 'projects'] as const,
  grid: (projectId: string, query: UnitGridQuery) => ['stock', 'grid', projectId, query] as const,
  picker: (projectId: string, kind: UnitKind, search: string) =>
    ['stock', 'picker', projectId, kind, search] as const,
  priceLists: (projectId: string) => ['stock', 'price-lists', projectId] as const,
  policy: (projectId: string) => ['stock', 'policy', projectId] as const,
};
