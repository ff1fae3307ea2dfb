import { Alert, Anchor, Button, PasswordInput, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { errorMessage } from '../../../shared/errors';
import { PASSWORD_MIN, type RegisterBody, registerBody } from '../../../shared/schemas/auth';
import { paths } from '../../app/paths';
import { applyServerErrors } from '../../lib/forms';
import { useRegister } from '../../lib/session';
import { registrationQueryKey, useRegistrationIsOpen } from './api';
import { AuthCard } from './auth-card';

export default function RegisterPage() {
  const registration = useRegistrationIsOpen();
  if (registration.data === false) {
    return (
      <AuthCard title="Crear cuenta">
        <Stack>
          <Alert color="blue" role="status">
            {errorMessage('REGISTRATION_CLOSED')}
          </Alert>
          <Text size="sm" ta="center">
            <Anchor component={Link} to={paths.login}>
              Iniciar sesión
            </Anchor>
          </Text>
        </Stack>
      </AuthCard>
    );
  }
  return <RegisterForm />;
}

function RegisterForm() {
  const navigate = useNavigate();
  const register = useRegister();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);

  const form = useForm<RegisterBody>({
    mode: 'uncontrolled',
    initialValues: { firstName: '', lastName: '', position: '', email: '', password: '' },
    validate: schemaResolver(registerBody, { sync: true }),
  });

  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    try {
      await register.mutateAsync(values);
      // Under first-user the first account closes registration: the login page must not offer it.
      await queryClient.invalidateQueries({ queryKey: registrationQueryKey });
      navigate(paths.login, { replace: true, state: { registered: true } });
    } catch (error) {
      setFailure(applyServerErrors(form, error));
    }
  });

  return (
    <AuthCard title="Crear cuenta">
      <form onSubmit={submit} noValidate>
        <Stack>
          {failure ? (
            <Alert color="red" role="alert">
              {failure}
            </Alert>
          ) : null}
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            <TextInput
              label="Nombres"
              autoComplete="given-name"
              required
              key={form.key('firstName')}
              {...form.getInputProps('firstName')}
            />
            <TextInput
              label="Apellidos"
              autoComplete="family-name"
              required
              key={form.key('lastName')}
              {...form.getInputProps('lastName')}
            />
          </SimpleGrid>
          <TextInput
            label="Cargo"
            autoComplete="organization-title"
            required
            key={form.key('position')}
            {...form.getInputProps('position')}
          />
          <TextInput
            label="Correo Electrónico"
            type="email"
            autoComplete="email"
            required
            key={form.key('email')}
            {...form.getInputProps('email')}
          />
          <PasswordInput
            label="Contraseña"
            description={`Al menos ${PASSWORD_MIN} caracteres`}
            autoComplete="new-password"
            required
            key={form.key('password')}
            {...form.getInputProps('password')}
          />
          <Button type="submit" disabled={register.isPending} fullWidth>
            {register.isPending ? 'Registrando...' : 'Registrarse'}
          </Button>
          <Text size="sm" ta="center">
            ¿Ya tiene una cuenta?{' '}
            <Anchor component={Link} to={paths.login}>
              Iniciar sesión
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthCard>
  );
}
