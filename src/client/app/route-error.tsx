import { Alert, Button, Container, Stack } from '@mantine/core';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { paths } from './paths';

function ErrorScreen({ notFound, message }: { notFound: boolean; message: string }) {
  return (
    <Container size="sm" py="xl">
      <Stack>
        <Alert
          color={notFound ? 'yellow' : 'red'}
          title={notFound ? 'Página no encontrada' : 'Ocurrió un error inesperado'}
        >
          {message}
        </Alert>
        <Stack gap="xs" align="flex-start">
          {notFound ? null : <Button onClick={() => window.location.reload()}>Recargar la página</Button>}
          <Button variant={notFound ? 'filled' : 'subtle'} component={Link} to={paths.dashboard}>
            Ir al inicio
          </Button>
        </Stack>
      </Stack>
    </Container>
  );
}

/** An address that is no screen of Inmoflujo, shown inside the shell (menu included). */
export function NotFoundPage() {
  return <ErrorScreen notFound message="La dirección no corresponde a ninguna sección de Inmoflujo." />;
}

/** Shown when a screen fails to load or render; never a blank page. */
export function RouteError() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const chunkFailed =
    error instanceof Error && /dynamically imported module|Importing a module script/i.test(error.message);
  if (notFound) return <NotFoundPage />;
  return (
    <ErrorScreen
      notFound={false}
      message={
        chunkFailed
          ? 'Hay una nueva versión de la aplicación. Recargue la página para continuar.'
          : 'No se pudo mostrar esta sección. Recargue la página e intente nuevamente.'
      }
    />
  );
}
