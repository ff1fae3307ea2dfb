import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BackupRow, BackupStatusResponse, BackupsResponse } from '../../../shared/schemas/backups';
import { api } from '../../lib/api';

/** Configuración → Respaldos (/api/backups, administrators; decision 0031). */
export const BACKUPS_URL = '/api/backups';

export const backupKeys = {
  all: ['backups'] as const,
  list: ['backups', 'list'] as const,
  status: ['backups', 'status'] as const,
};

export function useBackups() {
  return useQuery({
    queryKey: backupKeys.list,
    queryFn: ({ signal }) => api<BackupsResponse>(BACKUPS_URL, { signal }),
    staleTime: 0,
  });
}

/** The dashboard's warning (administrators only: `enabled`). */
export function useBackupStatus(enabled: boolean) {
  return useQuery({
    queryKey: backupKeys.status,
    queryFn: async ({ signal }) =>
      (await api<BackupStatusResponse>(`${BACKUPS_URL}/status`, { signal })).status,
    enabled,
    staleTime: 60_000,
  });
}

/** 'Crear respaldo ahora'. */
export function useCreateBackup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => (await api<{ backup: BackupRow }>(BACKUPS_URL, { method: 'POST' })).backup,
    onSettled: () => queryClient.invalidateQueries({ queryKey: backupKeys.all }),
  });
}

export function backupDownloadHref(name: string): string {
  return `${BACKUPS_URL}/${encodeURIComponent(name)}/download`;
}
