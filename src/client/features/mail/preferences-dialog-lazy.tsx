import { lazy, Suspense } from 'react';

const Dialog = lazy(() => import('./preferences-dialog'));

/** 'Avisos por correo', its code loaded when first opened (the top bar is on every screen). */
export function MailPreferencesDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  if (!opened) return null;
  return (
    <Suspense fallback={null}>
      <Dialog opened={opened} onClose={onClose} />
    </Suspense>
  );
}
