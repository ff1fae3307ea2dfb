import { Alert, Loader } from '@mantine/core';
import { IconPlugConnectedX } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';
import { NETWORK_ERROR_MESSAGE } from '../../lib/api';
import { connection } from '../../lib/connection';

/** Whether the server answers (re-renders when that changes). */
export function useConnectionState() {
  return useSyncExternalStore(connection.subscribe, connection.state);
}

/**
 * The red banner of spec part 1 §2: shown as soon as a request cannot reach the server, with
 * 'Intentando reconectar...' while the connection monitor probes (1, 2, 5, then every 10 s); gone
 * when the server answers, and then every screen reloads its data.
 */
export function ConnectionBanner() {
  const queryClient = useQueryClient();
  const state = useConnectionState();
  useEffect(() => connection.onRestored(() => void queryClient.invalidateQueries()), [queryClient]);

  if (state === 'online') return null;
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
      {NETWORK_ERROR_MESSAGE} Intentando reconectar... <Loader size={12} color="white" type="dots" />
    </Alert>
  );
}
