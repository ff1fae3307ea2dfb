import { Button, Group, Modal, Text } from '@mantine/core';
import { useEffect } from 'react';
import { useBlocker } from 'react-router';

/** Marks a navigation that follows a successful save: the guard lets it through. */
export const AFTER_SAVE = { afterSave: true } as const;

/**
 * Nothing typed is lost by leaving (issue 10): while `dirty`, leaving the screen (a link, the menu,
 * back) asks first, and closing or reloading the tab triggers the browser's own warning. Changes of
 * the same screen's address (its query) and the navigation after a save (`navigate(to, { state:
 * AFTER_SAVE })`) pass. Render the returned element once in the form's page.
 */
export function useLeaveGuard(dirty: boolean) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty &&
      currentLocation.pathname !== nextLocation.pathname &&
      !(nextLocation.state as { afterSave?: boolean } | null)?.afterSave,
  );
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  return (
    <Modal
      opened={blocker.state === 'blocked'}
      onClose={() => blocker.reset?.()}
      title="Hay cambios sin guardar"
      centered
    >
      <Text mb="lg">Si sale ahora, se perderá lo que escribió en este formulario.</Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={() => blocker.reset?.()}>
          Seguir editando
        </Button>
        <Button color="red" onClick={() => blocker.proceed?.()}>
          Salir sin guardar
        </Button>
      </Group>
    </Modal>
  );
}
