import { Button, Group, Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { PASSWORD_MAX, PASSWORD_MIN } from '../../../shared/schemas/auth';
import { userPasswordBody } from '../../../shared/schemas/settings';
import { ErrorAlert } from '../../components/error-alert';
import { schemaErrors, useServerFieldErrors } from '../../lib/forms';
import { notifySaved } from '../../lib/notify';
import { useChangeUserPassword } from './api';

export const PASSWORDS_DIFFER = 'Las contraseñas no coinciden';

/** 'Cambiar contraseña' of another user (administrators): the new password, typed twice. */
export function ChangePasswordDialog({
  opened,
  userId,
  userName,
  onClose,
}: {
  opened: boolean;
  userId: string;
  userName: string;
  onClose: () => void;
}) {
  const change = useChangeUserPassword();
  const form = useForm({
    mode: 'controlled',
    initialValues: { password: '', repeat: '' },
    validate: (values) => {
      const errors = schemaErrors(userPasswordBody, { password: values.password });
      if (!errors.password && values.repeat !== values.password) errors.repeat = PASSWORDS_DIFFER;
      return errors;
    },
  });
  useServerFieldErrors(form, change.error);

  const close = () => {
    if (change.isPending) return;
    form.reset();
    change.reset();
    onClose();
  };

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={<Text fw={700}>Cambiar contraseña</Text>}
      size="sm"
      centered
      closeButtonProps={{ 'aria-label': 'Cerrar' }}
    >
      <form
        noValidate
        onSubmit={form.onSubmit((values) =>
          change.mutate(
            { id: userId, password: values.password },
            {
              onSuccess: () => {
                notifySaved(`Contraseña de ${userName} actualizada`);
                form.reset();
                onClose();
              },
            },
          ),
        )}
      >
        <Stack gap="sm">
          <Text size="sm">
            Nueva contraseña para <strong>{userName}</strong>. Al cambiarla se cierran sus sesiones abiertas.
          </Text>
          <ErrorAlert error={change.error} />
          <PasswordInput
            label="Nueva contraseña"
            description={`Entre ${PASSWORD_MIN} y ${PASSWORD_MAX} caracteres`}
            required
            autoComplete="new-password"
            data-autofocus
            key={form.key('password')}
            {...form.getInputProps('password')}
          />
          <PasswordInput
            label="Repetir contraseña"
            required
            autoComplete="new-password"
            key={form.key('repeat')}
            {...form.getInputProps('repeat')}
          />
          <Group justify="flex-end" gap="sm" mt="xs">
            <Button variant="default" onClick={close} disabled={change.isPending}>
              Cancelar
            </Button>
            <Button type="submit" loading={change.isPending}>
              Cambiar contraseña
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
