import { Alert, Button, Group, Loader, Paper, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch, IconUser, IconUserPlus } from '@tabler/icons-react';
import { type KeyboardEvent, useRef, useState } from 'react';
import { Link } from 'react-router';
import { formatRut } from '../../../shared/format';
import { paths } from '../../app/paths';
import { errorMessage } from '../../lib/api';
import { type ClientSummary, useClientSearch } from './lookups';

/**
 * Step 1 of a new reservation (spec part 1 §2): find the buyer by RUT or name (up to 5 results), or
 * create a new client and come back to this step with it chosen.
 */
export function ClientSearchStep({
  onSelect,
  returnTo,
}: {
  onSelect: (client: ClientSummary) => void;
  /** Where /clientes/nuevo comes back to with the new client (omit to hide 'Nuevo Cliente'). */
  returnTo?: string;
}) {
  const [text, setText] = useState('');
  const [search] = useDebouncedValue(text.trim(), 300);
  const results = useClientSearch(search);
  const input = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLDivElement>(null);

  // Arrows move between the box and the results (Enter chooses the focused one, as a button does).
  const items = () => [...(list.current?.querySelectorAll<HTMLElement>('[role="listitem"]') ?? [])];
  const focusItem = (index: number) => items()[index]?.focus();
  const onInputKey = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' && items().length > 0) {
      event.preventDefault();
      focusItem(0);
    }
  };
  const onListKey = (event: KeyboardEvent) => {
    const all = items();
    const current = all.indexOf(document.activeElement as HTMLElement);
    if (current < 0) return;
    const target =
      event.key === 'ArrowDown'
        ? Math.min(current + 1, all.length - 1)
        : event.key === 'ArrowUp'
          ? current - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? all.length - 1
              : event.key === 'Escape'
                ? -1
                : null;
    if (target === null) return;
    event.preventDefault();
    if (target < 0) input.current?.focus();
    else focusItem(target);
  };

  return (
    <Paper withBorder p="lg" radius="md" maw={640}>
      <Stack>
        <Text fw={600}>Seleccione el cliente de la reserva</Text>
        <TextInput
          label="Buscar cliente"
          placeholder="RUT o nombre del cliente"
          leftSection={<IconSearch size={16} />}
          rightSection={results.isFetching ? <Loader size="xs" /> : null}
          description="Flecha abajo para recorrer los resultados; Enter elige"
          ref={input}
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          onKeyDown={onInputKey}
          data-autofocus
          autoFocus
        />
        {results.isError ? <Alert color="red">{errorMessage(results.error)}</Alert> : null}
        {results.data && !search && results.data.rows.length > 0 ? (
          <Text size="xs" c="dimmed" mb={-8}>
            Clientes recientes
          </Text>
        ) : null}
        {results.data ? (
          results.data.rows.length === 0 ? (
            <Text c="dimmed" size="sm">
              {search ? `No se encontraron clientes con «${search}».` : 'Aún no hay clientes registrados.'}
            </Text>
          ) : (
            <Stack
              ref={list}
              gap={6}
              role="list"
              aria-label={search ? 'Clientes encontrados' : 'Clientes recientes'}
              onKeyDown={onListKey}
            >
              {results.data.rows.map((client) => (
                <UnstyledButton
                  key={client.id}
                  role="listitem"
                  onClick={() => onSelect(client)}
                  p="sm"
                  style={{ border: '1px solid var(--mantine-color-gray-3)', borderRadius: 8 }}
                >
                  <Group gap="sm" wrap="nowrap">
                    <IconUser size={18} />
                    <div>
                      <Text fw={500}>
                        {client.firstName} {client.lastName}
                      </Text>
                      <Text size="xs" c="dimmed">
                        RUT {formatRut(client.rut)}
                      </Text>
                    </div>
                  </Group>
                </UnstyledButton>
              ))}
            </Stack>
          )
        ) : null}
        {returnTo ? (
          <Group>
            <Button
              variant="light"
              leftSection={<IconUserPlus size={16} />}
              component={Link}
              to={`${paths.newClient}?volver=${encodeURIComponent(returnTo)}`}
            >
              Nuevo Cliente
            </Button>
          </Group>
        ) : null}
      </Stack>
    </Paper>
  );
}
