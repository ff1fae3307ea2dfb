import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { HistoryKind } from '../../../shared/audit/fields';
import type { ExportFormat } from '../../../shared/reports/columns';
import type { AuditFilters, AuditPage, AuditUser } from '../../../shared/schemas/audit';
import type { PageParams } from '../../../shared/schemas/common';
import { api, exportHref } from '../../lib/api';

/** How many entries a 'Historial' page brings ('Cargar más' asks for the next). */
export const HISTORY_PAGE_SIZE = 20;

/** The Auditoría's request: its page and the filters set (the absent ones left out). */
export type AuditListQuery = AuditFilters & PageParams;

export const AUDIT_URL = '/api/audit';

export const auditKeys = {
  all: ['audit'] as const,
  history: (kind: HistoryKind, id: string) => ['audit', 'history', kind, id] as const,
  list: (query: AuditListQuery) => ['audit', 'list', query] as const,
  users: ['audit', 'users'] as const,
};

/** One page of a record's 'Historial' (its changes and its parts', newest first). */
export function fetchHistory(
  kind: HistoryKind,
  id: string,
  page: number,
  signal?: AbortSignal,
): Promise<AuditPage> {
  return api<AuditPage>(`${AUDIT_URL}/history/${kind}/${id}`, {
    query: { page, pageSize: HISTORY_PAGE_SIZE },
    signal,
  });
}

/**
 * A record's 'Historial', page after page ('Cargar más' appends the next). Kept only while the drawer
 * shows it: each opening reads afresh from the first page, a change made a moment ago included.
 */
export function useHistory(kind: HistoryKind, id: string) {
  return useInfiniteQuery({
    queryKey: auditKeys.history(kind, id),
    queryFn: ({ pageParam, signal }) => fetchHistory(kind, id, pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last, pages) =>
      last.rows.length === HISTORY_PAGE_SIZE &&
      (last.totalIsCapped || pages.length * HISTORY_PAGE_SIZE < last.total)
        ? pages.length + 1
        : undefined,
    staleTime: 0,
    gcTime: 0,
  });
}

/** Configuración → Auditoría: a page of the whole log, filtered (administrators). */
export function useAuditLog(query: AuditListQuery) {
  return useQuery({
    queryKey: auditKeys.list(query),
    queryFn: ({ signal }) => api<AuditPage>(AUDIT_URL, { query: { ...query }, signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** Every staff account, active or not, for the Auditoría's user filter (administrators). */
export function useAuditUsers() {
  return useQuery({
    queryKey: auditKeys.users,
    queryFn: ({ signal }) =>
      api<{ users: AuditUser[] }>(`${AUDIT_URL}/users`, { signal }).then((answer) => answer.users),
  });
}

/** The Auditoría's CSV or XLSX with the filters shown (a download the server streams). */
export function auditExportHref(filters: AuditFilters, format: ExportFormat): string {
  return exportHref(AUDIT_URL, { ...filters }, format);
}
