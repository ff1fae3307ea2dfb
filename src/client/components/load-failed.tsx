import { Button } from '@mantine/core';
import { Link } from 'react-router';
import { ErrorAlert } from './error-alert';
import { PageHeader } from './page-header';

/** A screen whose record could not be loaded: its title, the message in the red box, and a way back. */
export function LoadFailed({
  title,
  message,
  backTo,
  backLabel,
}: {
  title: string;
  message: string;
  backTo: string;
  backLabel: string;
}) {
  return (
    <>
      <PageHeader title={title} />
      <ErrorAlert error={message} />
      <Button component={Link} to={backTo} variant="default">
        {backLabel}
      </Button>
    </>
  );
}
