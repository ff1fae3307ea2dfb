import { AppShell, Center, Loader } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { Suspense, useEffect } from 'react';
import { Outlet } from 'react-router';
import { BellBadge } from '../../features/notifications/bell-badge';
import { GlobalSearch } from '../../features/search';
import { errorMessage, onSessionLost } from '../../lib/api';
import { notifyError } from '../../lib/notify';
import { sessionQueryKey, useCurrentUser, useSignOut } from '../../lib/session';
import { ConnectionBanner } from './connection-banner';
import { SideMenu } from './side-menu';
import { TopBar } from './top-bar';

export function PageLoader() {
  return (
    <Center py="xl">
      <Loader role="status" aria-label="Cargando" />
    </Center>
  );
}

/** The main layout of spec part 1 §2: top bar, collapsible side menu, connection banner, the screen. */
export function AppLayout() {
  const user = useCurrentUser();
  const [menuOpened, menu] = useDisclosure(false);
  const signOut = useSignOut();
  const queryClient = useQueryClient();

  // A 401 anywhere means the session ended: forget the user and the guard sends them to /login.
  useEffect(() => onSessionLost(() => queryClient.setQueryData(sessionQueryKey, null)), [queryClient]);

  const handleSignOut = () => signOut().catch((error) => notifyError(errorMessage(error)));

  return (
    <AppShell
      header={{ height: 64 }}
      navbar={{ width: 250, breakpoint: 'sm', collapsed: { mobile: !menuOpened } }}
      padding="md"
    >
      <AppShell.Header>
        <TopBar
          user={user}
          menuOpened={menuOpened}
          onToggleMenu={menu.toggle}
          onSignOut={handleSignOut}
          search={<GlobalSearch />}
          bellBadge={<BellBadge />}
        />
      </AppShell.Header>
      <AppShell.Navbar>
        <SideMenu user={user} onNavigate={menu.close} onSignOut={handleSignOut} />
      </AppShell.Navbar>
      <AppShell.Main>
        <ConnectionBanner />
        <Suspense fallback={<PageLoader />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}
