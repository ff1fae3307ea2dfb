import { Center, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconHomeHeart } from '@tabler/icons-react';
import { type ReactNode, useEffect } from 'react';
import { CREDIT_LINE } from '../../app/shell/top-bar';

export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · Inmoflujo`;
  }, [title]);
  return (
    <Center mih="100vh" p="md" bg="gray.0">
      <Stack w="100%" maw={420} gap="lg">
        <Stack gap={4} align="center">
          <Group gap={8}>
            <IconHomeHeart size={34} color="var(--mantine-color-blue-6)" />
            <Text fw={800} size="xl">
              Inmoflujo
            </Text>
          </Group>
          <Text c="dimmed" size="sm" ta="center">
            Panel de gestión de clientes, reservas, brokers, comisiones y pagos
          </Text>
        </Stack>
        <Paper withBorder shadow="sm" p="xl" radius="md">
          <Title order={3} mb="md">
            {title}
          </Title>
          {children}
        </Paper>
        <Text c="dimmed" size="xs" ta="center">
          {CREDIT_LINE}
        </Text>
      </Stack>
    </Center>
  );
}
