import { Button, Center, Stack, Text } from '@mantine/core';
import { useDeferredValue } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { errorMessage } from '../lib/api';
import { useSession } from '../lib/session';
import { paths } from './paths';
import { PageLoader } from './shell/app-layout';

function SessionCheckFailed({ error, retry }: { error: unknown; retry: () => void }) {
  return (
    <Center mih="100vh">
      <Stack align="center">
        <Text c="red" fw={600}>
          {errorMessage(error)} Intentando reconectar...
        </Text>
        <Button variant="light" onClick={retry}>
          Reintentar ahora
        </Button>
      </Stack>
    </Center>
  );
}

/** Every route but /login and /register: without a session the user goes to /login. */
export function RequireSession() {
  const session = useSession();
  const location = useLocation();
  // Once the session is known the whole shell and screen render in a transition, which yields to
  // the browser, rather than in one long task (Lighthouse's Total Blocking Time, issue 10 item 12).
  const known = useDeferredValue(!session.isPending);
  if (session.isPending || !known) return <PageLoader />;
  if (session.isError)
    return <SessionCheckFailed error={session.error} retry={() => void session.refetch()} />;
  if (!session.data)
    return <Navigate to={paths.login} replace state={{ from: location.pathname + location.search }} />;
  return <Outlet />;
}

/** /login and /register send an already signed-in user to /dashboard. */
export function PublicOnly() {
  const session = useSession();
  if (session.isPending) return <PageLoader />;
  if (session.data) return <Navigate to={paths.dashboard} replace />;
  return <Outlet />;
}
