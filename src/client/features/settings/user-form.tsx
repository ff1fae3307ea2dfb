import {
  Badge,
  Button,
  Checkbox,
  Grid,
  Group,
  Paper,
  PasswordInput,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconKey, IconUserCheck, IconUserOff } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { formatPersonName } from '../../../shared/format';
import { can, USER_TYPES } from '../../../shared/permissions';
import { PASSWORD_MAX, PASSWORD_MIN } from '../../../shared/schemas/auth';
import {
  IMAGE_HINT,
  type SettingsUser,
  type UserCreateBody,
  type UserUpdateBody,
  userCreateBody,
  userUpdateBody,
} from '../../../shared/schemas/settings';
import { paths } from '../../app/paths';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { AFTER_SAVE, useLeaveGuard } from '../../components/leave-guard';
import {
  FormActions,
  type FormFailure,
  FormFailureAlert,
  RecordFormPage,
} from '../../components/record-form';
import { applyServerErrors, schemaErrors } from '../../lib/forms';
import { notifySaved } from '../../lib/notify';
import { useCurrentUser } from '../../lib/session';
import { settingsKeys, useSaveUser, useSettingsUser, useSetUserActive, useUserAvatar } from './api';
import { ChangePasswordDialog } from './change-password-dialog';
import { type ImageChange, ImagePicker, KEEP_IMAGE } from './image-picker';
import {
  AdminOnly,
  FormHeader,
  type FormLocationState,
  imageFailure,
  useBackTo,
  useFormKey,
} from './settings-form';

interface UserFormValues {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  position: string;
  userType: string | null;
  isSeller: boolean;
}

function valuesOf(user: SettingsUser | undefined): UserFormValues {
  return {
    email: user?.email ?? '',
    password: '',
    firstName: user?.firstName ?? '',
    lastName: user?.lastName ?? '',
    position: user?.position ?? '',
    userType: user?.userType ?? null,
    isSeller: user?.isSeller ?? false,
  };
}

function updateBodyOf(values: UserFormValues, version: number): UserUpdateBody {
  return {
    firstName: values.firstName,
    lastName: values.lastName,
    position: values.position,
    userType: values.userType as UserUpdateBody['userType'],
    isSeller: values.isSeller,
    version,
  };
}

function createBodyOf(values: UserFormValues): UserCreateBody {
  const { version: _none, ...fields } = updateBodyOf(values, 0);
  return { email: values.email, password: values.password, ...fields };
}

function initialsOf(firstName: string, lastName: string): string {
  return `${firstName.trim().charAt(0)}${lastName.trim().charAt(0)}`.toUpperCase();
}

/** /configuracion/usuarios/nuevo and …/editar/{id}. */
export function UserFormPage({ id }: { id: string | undefined }) {
  const canManage = can(useCurrentUser(), 'users.manage');
  const user = useSettingsUser(canManage ? id : undefined);
  const backTo = useBackTo('usuarios');
  const formKey = useFormKey(id);
  const title = id ? 'Editar Usuario' : 'Nuevo Usuario';

  if (!canManage) return <AdminOnly title={title} backTo={backTo} what="usuarios" />;
  return (
    <RecordFormPage
      id={id}
      record={user}
      formKey={formKey}
      title={title}
      what="el usuario"
      backTo={backTo}
      backLabel="Volver a Usuarios"
    >
      {({ record, onReload }) => (
        <UserForm formKey={formKey} user={record} backTo={backTo} onReload={onReload} />
      )}
    </RecordFormPage>
  );
}

function UserForm({
  formKey,
  user,
  backTo,
  onReload,
}: {
  formKey: string;
  user: SettingsUser | undefined;
  backTo: string;
  onReload: () => void;
}) {
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const save = useSaveUser();
  const saveAvatar = useUserAvatar();
  // The record as last saved: a new user whose avatar failed is edited from then on.
  const [current, setCurrent] = useState(user);
  const [avatar, setAvatar] = useState<ImageChange>(KEEP_IMAGE);
  const [failure, setFailure] = useState<FormFailure | null>(null);
  const saving = save.isPending || saveAvatar.isPending;
  // A user created here whose avatar failed is no longer new: no password, e-mail fixed.
  const isNew = !current;

  const form = useForm<UserFormValues>({
    mode: 'controlled',
    initialValues: valuesOf(user),
    validate: (values) =>
      current
        ? schemaErrors(userUpdateBody, updateBodyOf(values, current.version))
        : schemaErrors(userCreateBody, createBodyOf(values)),
  });
  const leaveGuard = useLeaveGuard((form.isDirty() || avatar.kind !== 'keep') && !saving);

  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    let saved = current;
    try {
      if (!current) {
        saved = await save.mutateAsync({ id: undefined, body: createBodyOf(values) });
      } else if (form.isDirty()) {
        saved = await save.mutateAsync({ id: current.id, body: updateBodyOf(values, current.version) });
      }
    } catch (error) {
      applyServerErrors(form, error);
      setFailure({ error });
      return;
    }
    if (!saved) return;
    if (avatar.kind !== 'keep') {
      try {
        saved = await saveAvatar.mutateAsync({
          id: saved.id,
          file: avatar.kind === 'upload' ? avatar.file : null,
        });
      } catch (error) {
        // The user is saved: say so, stay here with the chosen file, and edit it from now on.
        setCurrent(saved);
        form.resetDirty(values);
        setFailure(imageFailure('El usuario', 'el avatar', error));
        if (!current) {
          queryClient.setQueryData(settingsKeys.user(saved.id), saved);
          const state: FormLocationState = {
            ...AFTER_SAVE,
            from: (location.state as FormLocationState | null)?.from,
            formKey,
          };
          navigate(paths.editSettingsRecord('usuarios', saved.id), { replace: true, state });
        }
        return;
      }
    }
    notifySaved(current ? 'Usuario actualizado' : 'Usuario creado');
    navigate(backTo, { state: AFTER_SAVE });
  });

  const fields = (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="md">
      <Stack gap="lg">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label="Correo Electrónico"
            type="email"
            required={isNew}
            disabled={!isNew}
            description={isNew ? 'Con él ingresará a Inmoflujo' : 'El correo electrónico no se puede cambiar'}
            autoComplete="off"
            key={form.key('email')}
            {...form.getInputProps('email')}
          />
          {isNew ? (
            <PasswordInput
              label="Contraseña"
              required
              description={`Entre ${PASSWORD_MIN} y ${PASSWORD_MAX} caracteres`}
              autoComplete="new-password"
              key={form.key('password')}
              {...form.getInputProps('password')}
            />
          ) : null}
          <TextInput
            label="Nombres"
            required
            autoComplete="off"
            key={form.key('firstName')}
            {...form.getInputProps('firstName')}
          />
          <TextInput
            label="Apellidos"
            required
            autoComplete="off"
            key={form.key('lastName')}
            {...form.getInputProps('lastName')}
          />
          <TextInput
            label="Cargo"
            required
            autoComplete="off"
            key={form.key('position')}
            {...form.getInputProps('position')}
          />
          <Select
            label="Tipo de Usuario"
            required
            placeholder="Seleccione"
            data={[...USER_TYPES]}
            allowDeselect={false}
            key={form.key('userType')}
            {...form.getInputProps('userType')}
          />
        </SimpleGrid>
        <Checkbox
          label="Vendedor"
          description="Aparece en la lista de vendedores de las reservas"
          key={form.key('isSeller')}
          {...form.getInputProps('isSeller', { type: 'checkbox' })}
        />
        <ImagePicker
          label="Avatar"
          currentUrl={current?.avatarUrl ?? null}
          value={avatar}
          onChange={setAvatar}
          removeLabel="Quitar avatar"
          hint={IMAGE_HINT}
          fallback={initialsOf(form.values.firstName, form.values.lastName) || null}
          round
          disabled={saving}
        />
      </Stack>
    </Paper>
  );

  return (
    <>
      <FormHeader title={current ? 'Editar Usuario' : 'Nuevo Usuario'} backTo={backTo} />
      {leaveGuard}
      <Grid gap="md" maw={1120}>
        <Grid.Col span={{ base: 12, md: current ? 8 : 12 }} maw={current ? undefined : 760}>
          <form onSubmit={submit} noValidate>
            <Stack>
              <FormFailureAlert failure={failure} onReload={current ? onReload : undefined} />
              {fields}
              <FormActions cancelTo={backTo} saving={saving} />
            </Stack>
          </form>
        </Grid.Col>
        {/* Outside the form: its dialogs have forms of their own. */}
        {current ? (
          <Grid.Col span={{ base: 12, md: 4 }}>
            <AccountCard user={current} onChanged={setCurrent} />
          </Grid.Col>
        ) : null}
      </Grid>
    </>
  );
}

/** Beside the form: the account's state, 'Cambiar contraseña', and deactivation or reactivation. */
function AccountCard({ user, onChanged }: { user: SettingsUser; onChanged: (user: SettingsUser) => void }) {
  const setActive = useSetUserActive();
  const [confirming, setConfirming] = useState(false);
  const [changingPassword, setChangingPassword] = useState(false);
  const name = formatPersonName(user);

  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="md" component="section" aria-label="Cuenta">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={4}>Cuenta</Title>
          <Badge color={user.isActive ? 'green' : 'gray'} variant={user.isActive ? 'light' : 'outline'}>
            {user.isActive ? 'Activo' : 'Inactivo'}
          </Badge>
        </Group>
        <Text size="sm" c="dimmed">
          {user.isActive
            ? 'Puede ingresar a Inmoflujo con su correo y contraseña.'
            : 'No puede ingresar. Su historial y sus asignaciones se conservan.'}
        </Text>
        <Button
          variant="default"
          leftSection={<IconKey size={18} />}
          onClick={() => setChangingPassword(true)}
        >
          Cambiar contraseña
        </Button>
        <Button
          variant="light"
          color={user.isActive ? 'red' : 'green'}
          leftSection={user.isActive ? <IconUserOff size={18} /> : <IconUserCheck size={18} />}
          onClick={() => {
            setActive.reset();
            setConfirming(true);
          }}
        >
          {user.isActive ? 'Desactivar usuario' : 'Reactivar usuario'}
        </Button>
      </Stack>

      <ConfirmDialog
        opened={confirming}
        title={user.isActive ? 'Desactivar usuario' : 'Reactivar usuario'}
        confirmLabel={user.isActive ? 'Desactivar' : 'Reactivar'}
        pendingLabel={user.isActive ? 'Desactivando...' : 'Reactivando...'}
        confirmColor={user.isActive ? 'red' : 'green'}
        loading={setActive.isPending}
        error={setActive.error}
        onClose={() => setConfirming(false)}
        onConfirm={() =>
          setActive.mutate(
            { id: user.id, active: !user.isActive },
            {
              onSuccess: (changed) => {
                onChanged(changed);
                setConfirming(false);
                notifySaved(
                  changed.isActive ? `Usuario reactivado: ${name}` : `Usuario desactivado: ${name}`,
                );
              },
            },
          )
        }
      >
        {user.isActive
          ? `¿Desactivar a ${name}? Sus sesiones abiertas se cierran de inmediato y ya no podrá ingresar. Se conservan su historial y sus asignaciones, y puede reactivarlo cuando quiera.`
          : `¿Reactivar a ${name}? Podrá volver a ingresar a Inmoflujo.`}
      </ConfirmDialog>
      <ChangePasswordDialog
        opened={changingPassword}
        userId={user.id}
        userName={name}
        onClose={() => setChangingPassword(false)}
      />
    </Paper>
  );
}
