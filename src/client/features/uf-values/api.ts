import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  UfAutomatic,
  UfDayBody,
  UfFetchView,
  UfImportBody,
  UfImportResult,
  UfMonth,
  UfValueView,
} from '../../../shared/schemas/uf-values';
import { api } from '../../lib/api';

/** Configuración → 'Valores UF' (/api/uf-values). */

export const ufValueKeys = {
  all: ['uf-values'] as const,
  month: (month: string) => ['uf-values', 'month', month] as const,
  automatic: ['uf-values', 'automatic'] as const,
};

export function useUfMonth(month: string) {
  return useQuery({
    queryKey: ufValueKeys.month(month),
    queryFn: ({ signal }) => api<UfMonth>('/api/uf-values', { query: { month }, signal }),
  });
}

/** After a change: every month, and every screen that shows pesos (payments, reports). */
function useInvalidate() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries();
}

export function useSaveUfDay() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ date, ...body }: UfDayBody & { date: string }) =>
      api<{ ufValue: UfValueView }>(`/api/uf-values/${date}`, { method: 'PUT', body }),
    onSuccess: invalidate,
  });
}

export function useImportUfValues() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: UfImportBody) =>
      api<{ import: UfImportResult }>('/api/uf-values/import', { method: 'POST', body }).then(
        (answer) => answer.import,
      ),
    onSuccess: (result) => {
      if (result.applied) void invalidate();
    },
  });
}

/** A file's bytes in base64 (the import's body). */
export async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let index = 0; index < bytes.length; index += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  }
  return btoa(binary);
}

/** The daily fetch (administrators): on or off, and its last attempt. */
export function useUfAutomatic(enabled: boolean) {
  return useQuery({
    queryKey: ufValueKeys.automatic,
    queryFn: ({ signal }) => api<UfAutomatic>('/api/uf-values/automatic', { signal }),
    enabled,
  });
}

/** 'Consultar ahora': an attempt now; what it saved shows everywhere pesos show. */
export function useFetchUfNow() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: () =>
      api<{ fetch: UfFetchView }>('/api/uf-values/automatic', { method: 'POST' }).then(
        (answer) => answer.fetch,
      ),
    onSuccess: invalidate,
  });
}
