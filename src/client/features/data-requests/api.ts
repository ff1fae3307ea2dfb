import {
  keepPreviousData,
  type QueryClient,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import type { PageParams } from '../../../shared/schemas/common';
import type {
  DataRequestBody,
  DataRequestDetail,
  DataRequestListQuery,
  DataRequestPage,
  DataRequestUpdateBody,
  RetentionPage,
} from '../../../shared/schemas/data-requests';
import { api } from '../../lib/api';
import { sessionQueryKey } from '../../lib/session';
import { clientKeys } from '../clients/api';
import { notificationKeys } from '../notifications/api';

/**
 * Configuración → 'Solicitudes de titulares' (/api/data-requests, administrators; decision 0027): the
 * register of holders' requests, what answers them, the holder's data export and the retention list.
 */

export const DATA_REQUESTS_URL = '/api/data-requests';

export type RetentionQuery = PageParams;

export const dataRequestKeys = {
  all: ['data-requests'] as const,
  lists: ['data-requests', 'list'] as const,
  list: (query: DataRequestListQuery) => ['data-requests', 'list', query] as const,
  detail: (id: string) => ['data-requests', 'detail', id] as const,
  retention: ['data-requests', 'retention'] as const,
  retentionPage: (query: RetentionQuery) => ['data-requests', 'retention', query] as const,
  settings: ['data-requests', 'settings'] as const,
};

type RequestAnswer = { request: DataRequestDetail };
export type PrivacySettings = {
  retentionYears: number;
  /** Days an import's uploaded file is kept (decision 0055). */
  importFileDays: number;
  /** Days an .eml copy of a notice is kept (decision 0055). */
  mailCopyDays: number;
  version: number;
};
export type SuppressionResult = {
  clientId: string;
  blockedValues: number;
  redactedLogRows: number;
  redactedComments: number;
};
export type BlockedValue = {
  tableName: string;
  recordId: string;
  columnName: string;
  value: string;
  blockedAt: string;
};

/**
 * After a request changes: the register, the retention list, and the administrator's bell and
 * /notificaciones (an overdue request answered leaves both).
 */
function requestsChanged(queryClient: QueryClient) {
  void queryClient.invalidateQueries({ queryKey: dataRequestKeys.all });
  void queryClient.invalidateQueries({ queryKey: notificationKeys.count });
  void queryClient.invalidateQueries({ queryKey: notificationKeys.mine });
}

/** After a holder's client record changes (restricted, lifted): the requests and the client screens. */
function holderChanged(queryClient: QueryClient) {
  requestsChanged(queryClient);
  void queryClient.invalidateQueries({ queryKey: clientKeys.all });
}

// ---------------------------------------------------------------------------------------------
// The register

/** A page of the register (open requests by due date unless told otherwise). */
export function useDataRequests(query: DataRequestListQuery) {
  return useQuery({
    queryKey: dataRequestKeys.list(query),
    queryFn: ({ signal }) => api<DataRequestPage>(DATA_REQUESTS_URL, { query: { ...query }, signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

export function useDataRequest(id: string | undefined) {
  return useQuery({
    queryKey: dataRequestKeys.detail(id ?? ''),
    queryFn: async ({ signal }) =>
      (await api<RequestAnswer>(`${DATA_REQUESTS_URL}/${id}`, { signal })).request,
    enabled: Boolean(id),
    staleTime: 0,
  });
}

/** 'Registrar solicitud': a RUT that is no client's comes back answered at once. */
export function useCreateDataRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: DataRequestBody) =>
      (await api<RequestAnswer>(DATA_REQUESTS_URL, { method: 'POST', body })).request,
    onSuccess: () => requestsChanged(queryClient),
  });
}

/** Its status and the answer given (versioned). */
export function useUpdateDataRequest(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: DataRequestUpdateBody) =>
      (await api<RequestAnswer>(`${DATA_REQUESTS_URL}/${id}`, { method: 'PUT', body })).request,
    onSuccess: (request) => {
      queryClient.setQueryData(dataRequestKeys.detail(id), request);
      requestsChanged(queryClient);
    },
  });
}

/**
 * 'Suprimir datos personales' (irreversible). The holder's name changes on every screen that shows
 * it (lists, reservations, flows, reports): everything cached is read again, the session aside.
 */
export function useSuppressHolder(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (confirmation: string) =>
      (
        await api<{ suppression: SuppressionResult }>(`${DATA_REQUESTS_URL}/${id}/suppress`, {
          method: 'POST',
          body: { confirmation },
        })
      ).suppression,
    onSuccess: () =>
      queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== sessionQueryKey[0] }),
  });
}

/** 'Aplicar oposición' / 'Bloquear datos': the server applies what the request's kind asks. */
export function useRestrictHolder(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () =>
      (await api<RequestAnswer>(`${DATA_REQUESTS_URL}/${id}/restrict`, { method: 'POST' })).request,
    onSuccess: (request) => {
      queryClient.setQueryData(dataRequestKeys.detail(id), request);
      holderChanged(queryClient);
    },
  });
}

/** 'Levantar restricción' of a client (the holder withdrew the opposition or blocking). */
export function useLiftRestriction(clientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<void>(`${DATA_REQUESTS_URL}/holders/${clientId}/restriction`, { method: 'DELETE' }),
    onSuccess: () => holderChanged(queryClient),
  });
}

/**
 * 'Ver datos bloqueados': each reading is recorded in the audit trail, so it is an action the user
 * confirms (a mutation), never a query read again on its own.
 */
export function useReadBlockedValues(clientId: string) {
  return useMutation({
    mutationFn: async () =>
      (await api<{ values: BlockedValue[] }>(`${DATA_REQUESTS_URL}/holders/${clientId}/blocked-values`))
        .values,
  });
}

/** The holder's data as a download (JSON or Excel); the server records the export. */
export function holderExportHref(clientId: string, format: 'json' | 'xlsx'): string {
  return `${DATA_REQUESTS_URL}/holders/${clientId}/export?format=${format}`;
}

// ---------------------------------------------------------------------------------------------
// Retention

export function useRetention(query: RetentionQuery) {
  return useQuery({
    queryKey: dataRequestKeys.retentionPage(query),
    queryFn: ({ signal }) =>
      api<RetentionPage>(`${DATA_REQUESTS_URL}/retention`, { query: { ...query }, signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

export function usePrivacySettings() {
  return useQuery({
    queryKey: dataRequestKeys.settings,
    queryFn: async ({ signal }) =>
      (await api<{ settings: PrivacySettings }>(`${DATA_REQUESTS_URL}/settings`, { signal })).settings,
    staleTime: 0,
  });
}

export function useSavePrivacySettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: PrivacySettings) =>
      (
        await api<{ settings: PrivacySettings }>(`${DATA_REQUESTS_URL}/settings`, {
          method: 'PUT',
          body,
        })
      ).settings,
    onSuccess: (settings) => {
      queryClient.setQueryData(dataRequestKeys.settings, settings);
      void queryClient.invalidateQueries({ queryKey: dataRequestKeys.retention });
    },
  });
}
