import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  DocumentList,
  DocumentTypes,
  DocumentTypeView,
  DocumentVersionView,
  DocumentView,
} from '../../../shared/schemas/documents';
import { api } from '../../lib/api';

/** A reservation's documents (/api/reservations/:id/documents) and Configuración → Documentos. */

export const documentKeys = {
  all: ['documents'] as const,
  of: (reservationId: string) => ['documents', reservationId] as const,
  versions: (reservationId: string, documentId: string) =>
    ['documents', reservationId, 'versions', documentId] as const,
  types: ['document-types'] as const,
};

const base = (reservationId: string) => `/api/reservations/${reservationId}/documents`;

export function useDocuments(reservationId: string) {
  return useQuery({
    queryKey: documentKeys.of(reservationId),
    queryFn: ({ signal }) => api<DocumentList>(base(reservationId), { signal }),
  });
}

export function useDocumentVersions(reservationId: string, documentId: string | null) {
  return useQuery({
    queryKey: documentKeys.versions(reservationId, documentId ?? ''),
    queryFn: ({ signal }) =>
      api<{ versions: DocumentVersionView[] }>(`${base(reservationId)}/${documentId}/versions`, {
        signal,
      }).then((answer) => answer.versions),
    enabled: documentId !== null,
  });
}

/** Where a version is downloaded (an attachment) or previewed (inline, for the sandboxed frame). */
export function documentHref(
  reservationId: string,
  documentId: string,
  purpose: 'download' | 'preview',
  version?: number,
): string {
  return `${base(reservationId)}/${documentId}/${purpose}${version ? `?version=${version}` : ''}`;
}

export const receiptHref = (reservationId: string) => `/api/reservations/${reservationId}/receipt.pdf`;
export const commissionStatementHref = (reservationId: string) =>
  `/api/reservations/${reservationId}/commission-statement.pdf`;

function useInvalidateDocuments(reservationId: string) {
  const queryClient = useQueryClient();
  // A document may allow a task: the flow screens read their commands afresh too.
  return () => queryClient.invalidateQueries({ queryKey: documentKeys.of(reservationId) });
}

export function useUploadDocument(reservationId: string) {
  const invalidate = useInvalidateDocuments(reservationId);
  return useMutation({
    mutationFn: ({ file, typeId }: { file: File; typeId: string }) =>
      api<{ document: DocumentView }>(base(reservationId), {
        method: 'POST',
        body: file,
        query: { typeId, fileName: file.name },
      }).then((answer) => answer.document),
    onSuccess: invalidate,
  });
}

export function useReplaceDocument(reservationId: string) {
  const invalidate = useInvalidateDocuments(reservationId);
  return useMutation({
    mutationFn: ({ document, file }: { document: DocumentView; file: File }) =>
      api<{ document: DocumentView }>(`${base(reservationId)}/${document.id}/versions`, {
        method: 'POST',
        body: file,
        query: { fileName: file.name, version: document.version },
      }).then((answer) => answer.document),
    onSuccess: invalidate,
  });
}

export function useRenameDocument(reservationId: string) {
  const invalidate = useInvalidateDocuments(reservationId);
  return useMutation({
    mutationFn: ({ document, name }: { document: DocumentView; name: string }) =>
      api<{ document: DocumentView }>(`${base(reservationId)}/${document.id}`, {
        method: 'PATCH',
        body: { name, version: document.version },
      }).then((answer) => answer.document),
    onSuccess: invalidate,
  });
}

export function useDeleteDocument(reservationId: string) {
  const invalidate = useInvalidateDocuments(reservationId);
  return useMutation({
    mutationFn: (document: DocumentView) =>
      api<void>(`${base(reservationId)}/${document.id}`, { method: 'DELETE' }),
    onSuccess: invalidate,
  });
}

export function useDocumentTypes() {
  return useQuery({
    queryKey: documentKeys.types,
    queryFn: ({ signal }) => api<DocumentTypes>('/api/document-types', { signal }),
  });
}

export interface DocumentTypeInput {
  name: string;
  isRestricted: boolean;
  sortOrder: number;
  requiredByTaskIds: string[];
  version?: number;
}

export function useSaveDocumentType() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: DocumentTypeInput & { id?: string }) =>
      api<{ type: DocumentTypeView }>(id ? `/api/document-types/${id}` : '/api/document-types', {
        method: id ? 'PUT' : 'POST',
        body,
      }).then((answer) => answer.type),
    onSuccess: () => queryClient.invalidateQueries(),
  });
}

export function useDeleteDocumentType() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<void>(`/api/document-types/${id}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: documentKeys.types }),
  });
}
