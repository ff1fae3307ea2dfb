import {
  Alert,
  Badge,
  Box,
  Button,
  Card,
  Container,
  Group,
  Loader,
  Pagination,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconHomeHeart } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { formatDate } from '../../../shared/format';
import { paths } from '../../app/paths';
import { usePortalLogout, usePortalOperations, usePortalUser } from './api';

const STAGE_COLORS: Record<string, string> = {
  Reserva: 'blue',
  Promesa: 'indigo',
  Escrituración: 'violet',
  Escriturada: 'green',
  Resciliada: 'gray',
};

/**
 * /portal/operaciones — 'Mis operaciones' (issue 58), phone first: the broker's reservations as
 * cards, newest first, a page at a time; the buyer by name only (decision 0070).
 */
export default function PortalOperationsPage() {
  const navigate = useNavigate();
  const me = usePortalUser();
  const logout = usePortalLogout();
  const [page, setPage] = useState(1);
  const operations = usePortalOperations(page, Boolean(me.data));
  useEffect(() => {
    document.title = 'Mis operaciones · Portal de Brokers';
  }, []);

  if (me.isPending) return <Loader m="xl" />;
  if (!me.data) return <Navigate to={paths.portal} replace />;
  const pages = operations.data ? Math.max(1, Math.ceil(operations.data.total / 20)) : 1;

  return (
    <Box bg="gray.0" mih="100vh">
      <Box bg="white" px="md" py="sm" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
        <Group justify="space-between" wrap="nowrap">
          <Group gap={6} wrap="nowrap">
            <IconHomeHeart size={24} color="var(--mantine-color-blue-6)" />
            <Stack gap={0}>
              <Text fw={700} size="sm">
                {me.data.brokerName}
              </Text>
              <Text size="xs" c="dimmed">
                {me.data.name}
              </Text>
            </Stack>
          </Group>
          <Button
            variant="subtle"
            size="xs"
            onClick={async () => {
              await logout.mutateAsync().catch(() => undefined);
              navigate(paths.portal, { replace: true });
            }}
          >
            Cerrar sesión
          </Button>
        </Group>
      </Box>
      <Container size="sm" px="md" py="md">
        <Stack gap="sm">
          <Title order={2}>Mis operaciones</Title>
          {operations.isError ? (
            <Alert color="red">No se pudieron cargar sus operaciones.</Alert>
          ) : operations.isPending ? (
            <Loader />
          ) : operations.data.rows.length === 0 ? (
            <Text c="dimmed">Aún no hay reservas con su corredora.</Text>
          ) : (
            <>
              <Text size="sm" c="dimmed">
                {operations.data.totalIsCapped ? 'Más de ' : ''}
                {operations.data.total.toLocaleString('es-CL')} reservas
              </Text>
              {operations.data.rows.map((row) => (
                <Card key={row.reservationNumber} withBorder radius="md" padding="sm">
                  <Group justify="space-between" wrap="nowrap" align="flex-start">
                    <Stack gap={2}>
                      <Text fw={700}>Reserva N° {row.reservationNumber}</Text>
                      <Text size="sm">
                        {row.projectName} · Depto. {row.apartmentNumber}
                      </Text>
                      <Text size="sm" c="dimmed">
                        {row.buyerName} · {formatDate(row.reservationDate)}
                      </Text>
                    </Stack>
                    <Badge
                      color={STAGE_COLORS[row.stage] ?? 'blue'}
                      variant="light"
                      style={{ flexShrink: 0 }}
                    >
                      {row.stage}
                    </Badge>
                  </Group>
                </Card>
              ))}
              {pages > 1 ? <Pagination total={pages} value={page} onChange={setPage} size="sm" /> : null}
            </>
          )}
        </Stack>
      </Container>
    </Box>
  );
}
