import { Alert, Button, Group, List, Modal, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { formatInteger } from '../../../shared/format';
import { SUPPRESSION_CONFIRMATION, suppressionBody } from '../../../shared/schemas/data-requests';
import { ErrorAlert } from '../../components/error-alert';
import { schemaErrors } from '../../lib/forms';
import { type SuppressionResult, useSuppressHolder } from './api';

/** Why the typed word does not confirm the suppression (the API's own check), or null when it does. */
export function confirmationProblem(confirmation: string): string | null {
  return schemaErrors(suppressionBody, { confirmation }).confirmation ?? null;
}

/** What the suppression did, as counted by the server. */
function ResultTable({ result }: { result: SuppressionResult }) {
  const rows = [
    { label: 'Valores bloqueados por un deber legal', value: result.blockedValues },
    { label: 'Registros de auditoría redactados', value: result.redactedLogRows },
    { label: 'Comentarios reescritos', value: result.redactedComments },
  ];
  return (
    <Table aria-label="Resultado de la supresión" verticalSpacing={4}>
      <Table.Tbody>
        {rows.map((row) => (
          <Table.Tr key={row.label}>
            <Table.Td>{row.label}</Table.Td>
            <Table.Td ta="right" fw={600}>
              {formatInteger(row.value)}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/**
 * 'Suprimir datos personales' of a suppression request (Ley 21.719, decision 0027): what is erased,
 * what stays and why, under a warning that it cannot be undone; the administrator types SUPRIMIR
 * (the button waits for it); then what the server did, counted.
 */
export function SuppressDialog({
  opened,
  requestId,
  holderName,
  onClose,
}: {
  opened: boolean;
  requestId: string;
  holderName: string;
  onClose: () => void;
}) {
  const suppress = useSuppressHolder(requestId);
  const [confirmation, setConfirmation] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const confirmed = confirmationProblem(confirmation) === null;
  const result = suppress.data;

  const close = () => {
    if (suppress.isPending) return;
    setConfirmation('');
    setProblem(null);
    suppress.reset();
    onClose();
  };
  const submit = () => {
    const why = confirmationProblem(confirmation);
    setProblem(why);
    if (why) return;
    suppress.mutate(confirmation.trim());
  };

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={<Text fw={700}>{result ? 'Datos personales suprimidos' : 'Suprimir datos personales'}</Text>}
      size="lg"
      centered
      closeOnClickOutside={false}
      closeButtonProps={{ 'aria-label': 'Cerrar' }}
    >
      {result ? (
        <Stack gap="sm">
          <Alert color="green" icon={<IconCircleCheck size={18} />}>
            <Text size="sm">
              Los datos personales del titular fueron suprimidos y la solicitud quedó respondida. En adelante
              se muestra como «Titular suprimido».
            </Text>
          </Alert>
          <ResultTable result={result} />
          <Group justify="flex-end">
            <Button onClick={close} data-autofocus>
              Cerrar
            </Button>
          </Group>
        </Stack>
      ) : (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <Stack gap="sm">
            <ErrorAlert error={suppress.error} />
            <Alert color="red" icon={<IconAlertTriangle size={18} />} title="Esta acción es irreversible">
              <Text size="sm">
                Se borran los datos personales de <strong>{holderName}</strong>: nombres, RUT, fecha de
                nacimiento, teléfono y correo. En todas las pantallas, listas e informes pasa a llamarse
                «Titular suprimido» y deja de aparecer en Clientes. Los comentarios que lo nombran se
                reescriben y los valores de la auditoría que lo identifican se reemplazan por «[suprimido]».
              </Text>
            </Alert>
            <Text size="sm" fw={600}>
              Se conserva:
            </Text>
            <List size="sm" spacing={4} withPadding>
              <List.Item>
                El registro financiero y legal de sus ventas: precios, comisiones, pagos, fechas, flujos y
                resciliaciones.
              </List.Item>
              <List.Item>
                Lo que un deber legal obliga a guardar (reservas registradas, promociones pagadas al titular):
                el RUT y la cuenta bancaria quedan bloqueados, fuera de toda pantalla y exportación, y solo se
                leen con «Ver datos bloqueados», lectura que queda en la auditoría.
              </List.Item>
              <List.Item>El RUT en el registro de sus solicitudes, como prueba de la respuesta.</List.Item>
            </List>
            <Text size="xs" c="dimmed">
              No alcanza a los archivos ya descargados ni a los respaldos.
            </Text>
            <TextInput
              label={`Para confirmar, escriba ${SUPPRESSION_CONFIRMATION}`}
              required
              autoComplete="off"
              value={confirmation}
              error={problem}
              data-autofocus
              onChange={(event) => {
                setConfirmation(event.currentTarget.value);
                if (problem) setProblem(null);
              }}
            />
            <Group justify="flex-end" gap="sm" mt="xs">
              <Button variant="default" onClick={close} disabled={suppress.isPending}>
                Cancelar
              </Button>
              <Button type="submit" color="red" loading={suppress.isPending} disabled={!confirmed}>
                Suprimir datos personales
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
