import { Alert } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { errorMessage } from '../lib/api';

/** Backend errors on screens: the message in a red box at the top of the screen (spec part 1 §8). */
export function ErrorAlert({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  return (
    <Alert color="red" icon={<IconAlertCircle size={18} />} title={title} mb="md" role="alert">
      {typeof error === 'string' ? error : errorMessage(error)}
    </Alert>
  );
}
