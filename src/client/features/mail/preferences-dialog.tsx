import { Checkbox, Loader, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { type MailPreferences, mailPreferenceLabels } from '../../../shared/schemas/mail';
import { ErrorAlert } from '../../components/error-alert';
import { FormDialog } from '../../components/form-dialog';
import { notifySaved } from '../../lib/notify';
import { useMailPreferences, useSaveMailPreferences } from './api';

const ORDER: (keyof MailPreferences)[] = [
  'approvals',
  'mentions',
  'assigned',
  'rejections',
  'reminders',
  'digest',
];

/**
 * 'Avisos por correo': which notices the signed-in user gets by e-mail. Approvals and mentions go at
 * once; assignments and rejections of a quarter of an hour go together in one message.
 */
export default function MailPreferencesDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const preferences = useMailPreferences(opened);
  const save = useSaveMailPreferences();
  const [values, setValues] = useState<MailPreferences | null>(null);
  useEffect(() => {
    if (opened && preferences.data) setValues(preferences.data);
  }, [opened, preferences.data]);

  return (
    <FormDialog
      opened={opened}
      title="Avisos por correo"
      saving={save.isPending}
      error={save.error}
      onClose={() => {
        save.reset();
        onClose();
      }}
      onSubmit={() =>
        values &&
        save.mutate(values, {
          onSuccess: () => {
            notifySaved('Avisos por correo guardados');
            onClose();
          },
        })
      }
    >
      <Text size="sm" c="dimmed">
        Elija qué avisos recibe en su correo. Las aprobaciones y menciones llegan de inmediato; las
        asignaciones y rechazos de un mismo cuarto de hora llegan juntos en un solo correo.
      </Text>
      <ErrorAlert error={preferences.error} />
      {values ? (
        <Stack gap="xs">
          {ORDER.map((key) => (
            <Checkbox
              key={key}
              label={mailPreferenceLabels[key]}
              checked={values[key]}
              onChange={(event) => {
                const checked = event.currentTarget.checked;
                setValues((current) => (current ? { ...current, [key]: checked } : current));
              }}
            />
          ))}
        </Stack>
      ) : (
        <Loader size="sm" role="status" aria-label="Cargando" />
      )}
    </FormDialog>
  );
}
