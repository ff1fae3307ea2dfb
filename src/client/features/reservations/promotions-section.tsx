import { ActionIcon, Badge, Button, Group, Paper, Table, Text, Title } from '@mantine/core';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { formatDate, formatRut, formatUF } from '../../../shared/format';
import { can } from '../../../shared/permissions';
import { BANK_STATUS_LABELS } from '../../../shared/schemas/brokers';
import type { PromotionView } from '../../../shared/schemas/reservations';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ErrorAlert } from '../../components/error-alert';
import { notifySaved } from '../../lib/notify';
import { useCurrentUser } from '../../lib/session';
import { useDeletePromotion, useSavePromotion, useVerifyPromotionAccount } from './api';
import { PromotionDialog } from './promotion-dialog';

/** The promotions of a reservation, with the popup to add or edit one (delete: administrators). */
export function PromotionsSection({
  reservationId,
  promotions,
  readOnly,
}: {
  reservationId: string;
  promotions: PromotionView[];
  readOnly: boolean;
}) {
  const user = useCurrentUser();
  const save = useSavePromotion(reservationId);
  const remove = useDeletePromotion(reservationId);
  const verify = useVerifyPromotionAccount(reservationId);
  const [editing, setEditing] = useState<PromotionView | 'new' | null>(null);
  const [deleting, setDeleting] = useState<PromotionView | null>(null);
  const current = editing === 'new' ? null : editing;

  return (
    <Paper withBorder p="md" radius="md">
      <Group justify="space-between" mb="sm">
        <Title order={4}>Promociones</Title>
        {readOnly ? null : (
          <Button
            size="xs"
            variant="light"
            leftSection={<IconPlus size={14} />}
            onClick={() => {
              save.reset();
              setEditing('new');
            }}
          >
            Agregar Promoción
          </Button>
        )}
      </Group>
      {promotions.length === 0 ? (
        <Text c="dimmed" size="sm">
          Esta reserva no tiene promociones.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table striped aria-label="Promociones">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Beneficiario</Table.Th>
                <Table.Th>RUT</Table.Th>
                <Table.Th>Banco</Table.Th>
                <Table.Th ta="right">Monto</Table.Th>
                <Table.Th>Fecha de Pago</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {promotions.map((promotion) => (
                <Table.Tr key={promotion.id}>
                  <Table.Td>{promotion.beneficiary}</Table.Td>
                  <Table.Td>{formatRut(promotion.rut)}</Table.Td>
                  <Table.Td>
                    {promotion.bank} · {promotion.accountType}
                    {/* The payee's account waits for a second person before it is paid (issue 53). */}
                    <Group gap={6} mt={4} wrap="nowrap">
                      <Badge
                        size="sm"
                        variant="light"
                        miw="max-content"
                        color={promotion.accountStatus === 'unverified' ? 'orange' : 'green'}
                      >
                        {BANK_STATUS_LABELS[promotion.accountStatus]}
                      </Badge>
                      {promotion.canVerifyAccount ? (
                        <Button
                          size="compact-xs"
                          variant="light"
                          loading={verify.isPending && verify.variables?.id === promotion.id}
                          aria-label={`Verificar cuenta de ${promotion.beneficiary}`}
                          onClick={() =>
                            verify.mutate(
                              { id: promotion.id, version: promotion.version },
                              { onSuccess: () => notifySaved('Cuenta bancaria verificada') },
                            )
                          }
                        >
                          Verificar cuenta
                        </Button>
                      ) : null}
                    </Group>
                  </Table.Td>
                  <Table.Td ta="right">{formatUF(promotion.amount)}</Table.Td>
                  <Table.Td>{formatDate(promotion.paymentDate) || '—'}</Table.Td>
                  <Table.Td>
                    {readOnly ? null : (
                      <Group gap={4} justify="flex-end" wrap="nowrap">
                        <ActionIcon
                          variant="subtle"
                          aria-label={`Editar promoción de ${promotion.beneficiary}`}
                          onClick={() => {
                            save.reset();
                            setEditing(promotion);
                          }}
                        >
                          <IconPencil size={16} />
                        </ActionIcon>
                        {can(user, 'promotions.delete') ? (
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            aria-label={`Eliminar promoción de ${promotion.beneficiary}`}
                            onClick={() => {
                              remove.reset();
                              setDeleting(promotion);
                            }}
                          >
                            <IconTrash size={16} />
                          </ActionIcon>
                        ) : null}
                      </Group>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <ErrorAlert error={verify.error} />

      <PromotionDialog
        opened={editing !== null}
        promotion={current}
        saving={save.isPending}
        error={save.error}
        onCancel={() => setEditing(null)}
        onSave={(values) =>
          save.mutate(
            { id: current?.id, version: current?.version, values },
            {
              onSuccess: () => {
                setEditing(null);
                notifySaved(current ? 'Promoción actualizada' : 'Promoción agregada');
              },
            },
          )
        }
      />
      <ConfirmDialog
        opened={deleting !== null}
        title="Eliminar promoción"
        confirmLabel="Eliminar"
        pendingLabel="Eliminando..."
        loading={remove.isPending}
        error={remove.error}
        onClose={() => setDeleting(null)}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => {
              setDeleting(null);
              notifySaved('Promoción eliminada');
            },
          })
        }
      >
        ¿Eliminar la promoción de {deleting?.beneficiary} por {formatUF(deleting?.amount)}?
      </ConfirmDialog>
    </Paper>
  );
}
