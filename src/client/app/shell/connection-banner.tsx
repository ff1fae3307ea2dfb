import { Alert, Loader } from '@mantine/core';
import { IconPlugConnectedX } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { api, errorMessage, onConnectionLost } from '../../lib/api';

export const healthQueryKey = ['health'] as const;

/**
 * The red banner of spec part 1 §2: the connection error followed by 'Intentando reconectar...'
 * while /api/health (which checks the database) fails; gone as soon as it answers again, and then
 * every screen reloads its data.
 */
export function ConnectionBanner() {
  const queryClient = useQueryClient();
  const health = useQuery({
    queryKey: healthQueryKey,
    queryFn: () => api<{ status: 'ok' }>('/api/health', { allowUnauthenticated: true }),
    retry: false,
    staleTime: 0,
    refetchInterval: (query) => (query.state.status === 'error' ? 3_000 : 60_000),
  });

  useEffect(
    () => onConnectionLost(() => void queryClient.invalidateQueries({ queryKey: healthQueryKey })),
    [queryClient],
  );

  const wasDown = useRef(false);
  useEffect(() => {
    if (health.isError) wasDown.current = true;
    if (health.isSuccess && wasDown.current) {
      wasDown.current = false;
      void queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== healthQueryKey[0] });
    }
  }, [health.isError, health.isSuccess, queryClient]);

  if (!health.isError) return null;
  return (
    <Alert
      color="red"
      variant="filled"
      radius={0}
      icon={<IconPlugConnectedX size={18} />}
      role="alert"
      data-testid="connection-banner"
      styles={{ root: { position: 'sticky', top: 0, zIndex: 150 } }}
    >
      {errorMessage(health.error)} Intentando reconectar... <Loader size={12} color="white" type="dots" />
    </Alert>
  );
}
