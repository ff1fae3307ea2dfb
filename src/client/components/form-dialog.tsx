import { Button, Group, Modal, type ModalProps, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { ErrorAlert } from './error-alert';

/**
 * A small form in a popup: its title, the server's refusal in red inside it (spec part 2 §8), the
 * fields, and 'Cancelar' / the submit button. Never closes while saving. `onSubmit` runs on the
 * button and on Enter; it checks the fields itself.
 */
export function FormDialog({
  opened,
  title,
  saving,
  error,
  submitLabel = 'Guardar',
  submitColor,
  submitDisabled = false,
  size = 'md',
  onSubmit,
  onClose,
  children,
}: {
  opened: boolean;
  title: string;
  saving: boolean;
  error: unknown;
  submitLabel?: string;
  submitColor?: string;
  /** The submit button off until the form can be sent (a required reason not typed yet). */
  submitDisabled?: boolean;
  size?: ModalProps['size'];
  onSubmit: () => void;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <Modal
      opened={opened}
      onClose={() => {
        if (!saving) onClose();
      }}
      title={<Text fw={700}>{title}</Text>}
      size={size}
      centered
      closeButtonProps={{ 'aria-label': 'Cerrar' }}
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (!submitDisabled) onSubmit();
        }}
      >
        <Stack gap="sm">
          <ErrorAlert error={error} />
          {children}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} disabled={saving}>
              Cancelar
            </Button>
            <Button type="submit" color={submitColor} loading={saving} disabled={submitDisabled}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
