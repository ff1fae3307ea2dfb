import { Alert, Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { type LoginBody, loginBody } from '../../../shared/schemas/auth';
import { paths } from '../../app/paths';
import { applyServerErrors } from '../../lib/forms';
import { useLogin } from '../../lib/session';
import { useRegistrationIsOpen } from './api';
import { AuthCard } from './auth-card';

export default function LoginPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const login = useLogin();
  const registration = useRegistrationIsOpen();
  const [failure, setFailure] = useState<string | null>(null);
  const justRegistered = (location.state as { registered?: boolean } | null)?.registered === true;
  const from = (location.state as { from?: string } | null)?.from;

  const form = useForm<LoginBody>({
    mode: 'uncontrolled',
    initialValues: { email: '', password: '' },
    validate: schemaResolver(loginBody, { sync: true }),
  });

  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    try {
      await login.mutateAsync(values);
      navigate(from && from !== paths.login ? from : paths.dashboard, { replace: true });
    } catch (error) {
      setFailure(applyServerErrors(form, error));
    }
  });

  return (
    <AuthCard title="Iniciar Sesión">
      <form onSubmit={submit} noValidate>
        <Stack>
          {justRegistered && !failure ? (
            <Alert color="green">Cuenta creada. Ya puede iniciar sesión.</Alert>
          ) : null}
          {failure ? (
            <Alert color="red" role="alert">
              {failure}
            </Alert>
          ) : null}
          <TextInput
            label="Correo Electrónico"
            type="email"
            autoComplete="email"
            // The one thing to do on this screen: start typing.
            autoFocus
            required
            key={form.key('email')}
            {...form.getInputProps('email')}
          />
          <PasswordInput
            label="Contraseña"
            autoComplete="current-password"
            required
            key={form.key('password')}
            {...form.getInputProps('password')}
          />
          <Button type="submit" loading={false} disabled={login.isPending} fullWidth>
            {login.isPending ? 'Iniciando sesión...' : 'Iniciar Sesión'}
          </Button>
          {/* Offered only when the server says registration is open: otherwise a dead end. */}
          {registration.data === true ? (
            <Text size="sm" ta="center">
              ¿No tiene una cuenta?{' '}
              <Anchor component={Link} to={paths.register}>
                Registrarse
              </Anchor>
            </Text>
          ) : null}
        </Stack>
      </form>
    </AuthCard>
  );
}
