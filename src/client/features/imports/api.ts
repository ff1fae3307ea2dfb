import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiErrorBody } from '../../../shared/errors';
import type {
  ColumnMapping,
  DryRunResult,
  ImportKind,
  ImportRun,
  RepeatedKeys,
  UploadedFile,
} from '../../../shared/schemas/imports';
import { ApiError, api, NETWORK_ERROR_MESSAGE } from '../../lib/api';

/** Configuración → Importar (/api/imports, administrators; issue 32). */

export const IMPORTS_URL = '/api/imports';
/** The content type the server takes a file's bytes as (imports.routes.ts). */
const IMPORT_BODY_TYPE = 'application/x-inmoflujo-import';

export const importKeys = {
  all: ['imports'] as const,
  runs: ['imports', 'runs'] as const,
  run: (id: string) => ['imports', 'runs', id] as const,
};

export const templateHref = (kind: ImportKind) => `${IMPORTS_URL}/templates/${kind}`;
/** The errors workbook, read from the header row the review used. */
export const errorsHref = (runId: string, headerRow?: number, repeatedKeys?: RepeatedKeys) => {
  const query = new URLSearchParams();
  if (headerRow !== undefined) query.set('headerRow', String(headerRow));
  if (repeatedKeys === 'refuseAll') query.set('repeatedKeys', repeatedKeys);
  const text = query.toString();
  return `${IMPORTS_URL}/runs/${runId}/errors${text ? `?${text}` : ''}`;
};

/** Sends the file's bytes as they are (the server judges what they are). */
export async function uploadFile(kind: ImportKind, file: File): Promise<UploadedFile> {
  let response: Response;
  try {
    response = await fetch(`${IMPORTS_URL}/files?kind=${kind}&name=${encodeURIComponent(file.name)}`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { accept: 'application/json', 'content-type': IMPORT_BODY_TYPE },
      body: file,
    });
  } catch {
    throw new ApiError(0, 'NETWORK', NETWORK_ERROR_MESSAGE);
  }
  const body = (await response.json().catch(() => null)) as (UploadedFile & Partial<ApiErrorBody>) | null;
  if (response.ok && body) return body;
  throw new ApiError(
    response.status,
    body?.error?.code ?? 'HTTP_ERROR',
    body?.error?.message ?? 'Ocurrió un error inesperado. Intente nuevamente.',
  );
}

export type Mapping = ColumnMapping;

export function useUpload() {
  return useMutation({
    mutationFn: ({ kind, file }: { kind: ImportKind; file: File }) => uploadFile(kind, file),
  });
}

export function useChooseSheet() {
  return useMutation({
    mutationFn: ({ runId, ...body }: { runId: string; sheetName: string | null; headerRow?: number }) =>
      api<UploadedFile>(`${IMPORTS_URL}/runs/${runId}/sheet`, { method: 'POST', body }),
  });
}

export function useDryRun() {
  return useMutation({
    mutationFn: ({
      runId,
      ...body
    }: {
      runId: string;
      sheetName: string | null;
      headerRow: number;
      mapping: Mapping;
      repeatedKeys: RepeatedKeys;
    }) => api<DryRunResult>(`${IMPORTS_URL}/runs/${runId}/dry-run`, { method: 'POST', body }),
  });
}

export function useApply() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      runId,
      ...body
    }: {
      runId: string;
      sheetName: string | null;
      headerRow: number;
      mapping: Mapping;
      onlyValidRows: boolean;
      repeatedKeys: RepeatedKeys;
    }) => api<{ run: ImportRun }>(`${IMPORTS_URL}/runs/${runId}/apply`, { method: 'POST', body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: importKeys.runs }),
  });
}

/** A run, polled every second while it is being applied. */
export function useRun(runId: string | null) {
  return useQuery({
    queryKey: importKeys.run(runId ?? ''),
    queryFn: () => api<{ run: ImportRun }>(`${IMPORTS_URL}/runs/${runId}`).then((answer) => answer.run),
    enabled: runId !== null,
    refetchInterval: (query) => (query.state.data?.status === 'applying' ? 1000 : false),
  });
}

/**
 * 'Importaciones realizadas', read again every two seconds while it shows a run being applied: the
 * run ends in the background, and a list read when it began would say 'Aplicando' for good.
 */
export function useRuns() {
  return useQuery({
    queryKey: importKeys.runs,
    queryFn: () => api<{ rows: ImportRun[] }>(`${IMPORTS_URL}/runs`).then((answer) => answer.rows),
    refetchInterval: (query) => (query.state.data?.some((run) => run.status === 'applying') ? 2000 : false),
  });
}

function useRunCommand(command: 'cancel' | 'undo') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (runId: string) =>
      api<{ run: ImportRun }>(`${IMPORTS_URL}/runs/${runId}/${command}`, { method: 'POST' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: importKeys.all }),
  });
}

export const useCancel = () => useRunCommand('cancel');
export const useUndo = () => useRunCommand('undo');
