import { useQuery } from '@tanstack/react-query';
import type { DashboardData } from '../../../shared/schemas/dashboard';
import { api } from '../../lib/api';

export const dashboardQueryKey = ['dashboard'] as const;

export function useDashboard() {
  return useQuery({
    queryKey: dashboardQueryKey,
    queryFn: ({ signal }) => api<DashboardData>('/api/dashboard', { signal }),
  });
}
