import { useQuery } from '@tanstack/react-query';
import type { UserOption } from '../../../shared/schemas/users';
import { api } from '../../lib/api';

export const userOptionsQueryKey = ['users', 'options'] as const;

/** The active staff for pickers (assignees, mentions, filters); refreshed when settings change users. */
export function useUserOptions() {
  return useQuery({
    queryKey: userOptionsQueryKey,
    queryFn: async ({ signal }) =>
      (await api<{ users: UserOption[] }>('/api/users/options', { signal })).users,
    staleTime: 5 * 60_000,
  });
}
