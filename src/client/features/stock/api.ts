import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { UnitKind } from '../../../shared/domain/stock';
import type {
  PolicyFields,
  PolicyView,
  PriceListBody,
  PriceListDiff,
  PriceListView,
  UnitFields,
  UnitGrid,
  UnitGridQuery,
  UnitPickerResponse,
  UnitView,
} from '../../../shared/schemas/stock';
import { api } from '../../lib/api';
import { stockKeys } from './keys';

export { stockKeys } from './keys';

const base = (projectId: string) => `/api/stock/projects/${projectId}`;

export function useStockProjects() {
  return useQuery({
    queryKey: stockKeys.projects,
    queryFn: ({ signal }) =>
      api<{ projects: { id: string; name: string; stage: string; units: number }[] }>('/api/stock/projects', {
        signal,
      }),
  });
}

export function useUnitGrid(projectId: string | null, query: UnitGridQuery) {
  return useQuery({
    queryKey: stockKeys.grid(projectId ?? '', query),
    queryFn: ({ signal }) => api<UnitGrid>(`${base(projectId!)}/units`, { query: { ...query }, signal }),
    enabled: Boolean(projectId),
    placeholderData: keepPreviousData,
  });
}

export function useUnitPicker(projectId: string | null, kind: UnitKind, search: string) {
  return useQuery({
    queryKey: stockKeys.picker(projectId ?? '', kind, search),
    queryFn: ({ signal }) =>
      api<UnitPickerResponse>(`${base(projectId!)}/picker`, { query: { kind, search }, signal }),
    enabled: Boolean(projectId),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

export function usePriceLists(projectId: string) {
  return useQuery({
    queryKey: stockKeys.priceLists(projectId),
    queryFn: ({ signal }) => api<{ rows: PriceListView[] }>(`${base(projectId)}/price-lists`, { signal }),
  });
}

/** A project's commercial policy (read by every user: the reservation form warns from it); none for null. */
export function usePolicy(projectId: string | null) {
  return useQuery({
    queryKey: stockKeys.policy(projectId ?? ''),
    queryFn: ({ signal }) => api<{ policy: PolicyView }>(`${base(projectId!)}/policy`, { signal }),
    enabled: projectId !== null,
  });
}

function useStockMutation<Input, Output>(run: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: stockKeys.all }),
  });
}

export function useSaveUnit(projectId: string) {
  return useStockMutation((input: { id?: string; version?: number; values: UnitFields }) =>
    input.id
      ? api<{ unit: UnitView }>(`/api/stock/units/${input.id}`, {
          method: 'PUT',
          body: { ...input.values, version: input.version },
        })
      : api<{ unit: UnitView }>(`${base(projectId)}/units`, { method: 'POST', body: input.values }),
  );
}

export function useBlockUnit() {
  return useStockMutation((input: { id: string; version: number; reason: string | null }) =>
    input.reason === null
      ? api<{ unit: UnitView }>(`/api/stock/units/${input.id}/unblock`, {
          method: 'POST',
          body: { version: input.version },
        })
      : api<{ unit: UnitView }>(`/api/stock/units/${input.id}/block`, {
          method: 'POST',
          body: { version: input.version, reason: input.reason },
        }),
  );
}

export function previewPriceList(projectId: string, body: PriceListBody) {
  return api<{ diff: PriceListDiff }>(`${base(projectId)}/price-lists/preview`, { method: 'POST', body });
}

export function useApplyPriceList(projectId: string) {
  return useStockMutation((body: PriceListBody) =>
    api<{ priceList: PriceListView; diff: PriceListDiff }>(`${base(projectId)}/price-lists`, {
      method: 'POST',
      body,
    }),
  );
}

export function useSavePolicy(projectId: string) {
  return useStockMutation((body: PolicyFields & { version?: number }) =>
    api<{ policy: PolicyView }>(`${base(projectId)}/policy`, { method: 'PUT', body }),
  );
}
