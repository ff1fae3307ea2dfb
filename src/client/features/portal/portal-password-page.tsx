import { Alert, Button, PasswordInput, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { PASSWORD_MIN } from '../../../shared/schemas/auth';
import { paths } from '../../app/paths';
import { ApiError } from '../../lib/api';
import { AuthCard } from '../auth';
import { useSetPortalPassword } from './api';

/** /portal/clave?token=…: the invitation's link sets the password, once (decision 0069). */
export default function PortalPasswordPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const save = useSetPortalPassword();
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [failure, setFailure] = useState<string | null>(null);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setFailure(null);
    if (password !== repeat) {
      setFailure('Las contraseñas no coinciden.');
      return;
    }
    try {
      await save.mutateAsync({ token, password });
      navigate(paths.portal, { replace: true, state: { passwordSet: true } });
    } catch (error) {
      setFailure(
        error instanceof ApiError
          ? (Object.values(error.fields)[0] ?? error.message)
          : 'No se pudo guardar la contraseña.',
      );
    }
  };

  return (
    <AuthCard title="Crear Contraseña">
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text size="sm" c="dimmed">
            Elija la contraseña con que entrará al portal de brokers (al menos {PASSWORD_MIN} caracteres).
          </Text>
          {failure ? (
            <Alert color="red" role="alert">
              {failure}
            </Alert>
          ) : null}
          <PasswordInput
            label="Nueva Contraseña"
            autoComplete="new-password"
            required
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
          />
          <PasswordInput
            label="Repita la Contraseña"
            autoComplete="new-password"
            required
            value={repeat}
            onChange={(event) => setRepeat(event.currentTarget.value)}
          />
          <Button type="submit" disabled={save.isPending || token === ''} fullWidth>
            Guardar Contraseña
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
