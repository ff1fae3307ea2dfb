import { Alert, Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useState } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { type LoginBody, loginBody } from '../../../shared/schemas/auth';
import { paths } from '../../app/paths';
import { applyServerErrors } from '../../lib/forms';
import { AuthCard } from '../auth';
import { usePortalLogin, usePortalUser } from './api';

/** /portal: the brokers' own sign-in (decision 0069), apart from the staff's /login. */
export default function PortalLoginPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const me = usePortalUser();
  const login = usePortalLogin();
  const [failure, setFailure] = useState<string | null>(null);
  const passwordSet = (location.state as { passwordSet?: boolean } | null)?.passwordSet === true;
  const form = useForm<LoginBody>({
    mode: 'uncontrolled',
    initialValues: { email: '', password: '' },
    validate: schemaResolver(loginBody, { sync: true }),
  });
  if (me.data) return <Navigate to={paths.portalHome} replace />;

  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    try {
      await login.mutateAsync(values);
      navigate(paths.portalHome, { replace: true });
    } catch (error) {
      setFailure(applyServerErrors(form, error));
    }
  });

  return (
    <AuthCard title="Portal de Brokers">
      <form onSubmit={submit} noValidate>
        <Stack>
          {passwordSet && !failure ? (
            <Alert color="green">Contraseña creada. Ya puede iniciar sesión.</Alert>
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
          <Button type="submit" disabled={login.isPending} fullWidth>
            {login.isPending ? 'Iniciando sesión...' : 'Iniciar Sesión'}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
