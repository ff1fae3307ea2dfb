import { Button, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { IconEye } from '@tabler/icons-react';
import {
  AUDIT_TABLES,
  type AuditedTable,
  type AuditField,
  isAuditedTable,
} from '../../../shared/audit/fields';
import { formatRut } from '../../../shared/domain/rut';
import { formatDateTime } from '../../../shared/format';
import { ErrorAlert } from '../../components/error-alert';
import { type BlockedValue, useReadBlockedValues } from './api';

/** The record a blocked value belongs to: 'Cliente', 'Promoción'. */
const RECORD_NAMES: Partial<Record<AuditedTable, string>> = { clients: 'Cliente', promotions: 'Promoción' };

/** A blocked value's record and field in Spanish (the audit trail's names), and its value as shown elsewhere. */
export function blockedValueView(value: BlockedValue): { record: string; field: string; shown: string } {
  if (!isAuditedTable(value.tableName)) {
    return { record: value.tableName, field: value.columnName, shown: value.value };
  }
  const table = AUDIT_TABLES[value.tableName];
  const field = (table.fields as Record<string, AuditField>)[value.columnName];
  return {
    record: RECORD_NAMES[value.tableName] ?? table.noun,
    field: field?.label ?? value.columnName,
    shown: field?.format === 'rut' ? formatRut(value.value) : value.value,
  };
}

/**
 * 'Ver datos bloqueados' of a suppressed holder: what a legal duty kept (their RUT, a payment's payee
 * account), read only after the administrator confirms, since every reading is recorded in the audit
 * trail. Closing the dialog forgets the values.
 */
export function BlockedValuesDialog({
  opened,
  clientId,
  onClose,
}: {
  opened: boolean;
  clientId: string;
  onClose: () => void;
}) {
  const read = useReadBlockedValues(clientId);
  const close = () => {
    if (read.isPending) return;
    read.reset();
    onClose();
  };
  const values = read.data;

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={<Text fw={700}>Datos bloqueados</Text>}
      size={values ? 'lg' : 'sm'}
      centered
      closeButtonProps={{ 'aria-label': 'Cerrar' }}
    >
      {values ? (
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            Valores que un deber legal obliga a conservar. Esta lectura quedó registrada en la auditoría.
          </Text>
          <Table.ScrollContainer minWidth={480}>
            <Table aria-label="Datos bloqueados" striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Registro</Table.Th>
                  <Table.Th>Campo</Table.Th>
                  <Table.Th>Valor</Table.Th>
                  <Table.Th>Bloqueado el</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {values.map((value) => {
                  const view = blockedValueView(value);
                  return (
                    <Table.Tr key={`${value.tableName}:${value.recordId}:${value.columnName}`}>
                      <Table.Td>{view.record}</Table.Td>
                      <Table.Td>{view.field}</Table.Td>
                      <Table.Td style={{ overflowWrap: 'anywhere' }}>{view.shown}</Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(value.blockedAt)}</Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Group justify="flex-end">
            <Button onClick={close} data-autofocus>
              Cerrar
            </Button>
          </Group>
        </Stack>
      ) : (
        <Stack gap="sm">
          <ErrorAlert error={read.error} />
          <Text size="sm">
            Se mostrarán los datos que la supresión dejó bloqueados por un deber legal.{' '}
            <strong>Esta lectura queda registrada en la auditoría.</strong>
          </Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} disabled={read.isPending}>
              Cancelar
            </Button>
            <Button
              leftSection={<IconEye size={16} />}
              loading={read.isPending}
              onClick={() => read.mutate()}
              data-autofocus
            >
              Ver datos
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
