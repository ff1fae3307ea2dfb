import { Alert, Button, Container, Stack } from '@mantine/core';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { paths } from './paths';

/** Shown when a screen fails to load or render; never a blank page. */
export function RouteError() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const chunkFailed =
    error instanceof Error && /dynamically imported module|Importing a module script/i.test(error.message);
  return (
    <Container size="sm" py="xl">
      <Stack>
        <Alert
          color={notFound ? 'yellow' : 'red'}
          title={notFound ? 'Página no encontrada' : 'Ocurrió un error inesperado'}
        >
          {notFound
            ? 'La dirección no corresponde a ninguna sección de Inmoflujo.'
            : chunkFailed
              ? 'Hay una nueva versión de la aplicación. Recargue la página para continuar.'
              : 'No se pudo mostrar esta sección. Recargue la página e intente nuevamente.'}
        </Alert>
        <Stack gap="xs" align="flex-start">
          <Button onClick={() => window.location.reload()}>Recargar la página</Button>
          <Button variant="subtle" component={Link} to={paths.dashboard}>
            Ir al inicio
          </Button>
        </Stack>
      </Stack>
    </Container>
  );
}
