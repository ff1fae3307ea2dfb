import { Paper, Text } from '@mantine/core';
import { IconTools } from '@tabler/icons-react';
import { PageHeader } from './page-header';

/** A screen whose issue has not landed yet: its title and a clear notice, nothing pretending to work. */
export function PlaceholderPage({ title }: { title: string }) {
  return (
    <>
      <PageHeader title={title} />
      <Paper withBorder p="xl" radius="md" ta="center">
        <IconTools size={36} stroke={1.5} color="var(--mantine-color-dimmed)" />
        <Text mt="sm" c="dimmed">
          Esta sección aún no está disponible
        </Text>
      </Paper>
    </>
  );
}
