import { Alert, Badge, Button, Group, NativeSelect, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { formatDateTime, formatInteger } from '../../../shared/format';
import {
  MAIL_STATUSES,
  type MailListRow,
  type MailStatus,
  mailKindLabels,
  mailStatusLabels,
} from '../../../shared/schemas/mail';
import { ErrorAlert } from '../../components/error-alert';
import { type DataTableColumn, ServerTable } from '../../components/server-table';
import { oneOf, useListParams } from '../../lib/list-params';
import { notifyError, notifySaved } from '../../lib/notify';
import { useMailMessages, useRetryMail, useSendTestMail } from './api';
import { HolidaysSection } from './holidays-section';

const STATUS_COLORS: Record<MailStatus, string> = {
  pending: 'yellow',
  sent: 'green',
  failed: 'red',
  discarded: 'gray',
};

export function MailStatusBadge({ status }: { status: MailStatus }) {
  return (
    <Badge color={STATUS_COLORS[status]} variant="light" miw="max-content">
      {mailStatusLabels[status]}
    </Badge>
  );
}

const MAIL_FILTERS = ['estado'] as const;

function RetryButton({ row }: { row: MailListRow }) {
  const retry = useRetryMail();
  if (row.status !== 'failed' && row.status !== 'pending') return null;
  return (
    <Button
      size="compact-sm"
      variant="light"
      loading={retry.isPending}
      aria-label={`Reintentar el correo a ${row.recipient ?? 'destinatario'}`}
      onClick={() =>
        retry.mutate(row.id, {
          onSuccess: () => notifySaved('El correo se enviará en unos segundos'),
          onError: (error) => notifyError(error.message),
        })
      }
    >
      Reintentar
    </Button>
  );
}

const columns: DataTableColumn<MailListRow>[] = [
  { accessor: 'createdAt', title: 'Creado', noWrap: true, render: (row) => formatDateTime(row.createdAt) },
  { accessor: 'status', title: 'Estado', render: (row) => <MailStatusBadge status={row.status} /> },
  {
    accessor: 'recipient',
    title: 'Destinatario',
    render: (row) => (
      <Stack gap={0}>
        <Text size="sm">{row.recipientName ?? row.recipient ?? '—'}</Text>
        {row.recipientName && row.recipient ? (
          <Text size="xs" c="dimmed">
            {row.recipient}
          </Text>
        ) : null}
      </Stack>
    ),
  },
  {
    accessor: 'subject',
    title: 'Asunto',
    render: (row) => (
      <Stack gap={0}>
        <Text size="sm">{row.subject ?? mailKindLabels[row.kind]}</Text>
        <Text size="xs" c="dimmed">
          {mailKindLabels[row.kind]}
          {row.noticeCount > 1 ? ` · ${formatInteger(row.noticeCount)} avisos` : ''}
        </Text>
      </Stack>
    ),
  },
  {
    accessor: 'sentAt',
    title: 'Enviado / respuesta',
    render: (row) =>
      row.sentAt ? (
        <Text size="sm">{formatDateTime(row.sentAt)}</Text>
      ) : row.lastError ? (
        <Text size="sm" c={row.status === 'discarded' ? 'dimmed' : 'red'}>
          {row.lastError}
          {row.status === 'pending' ? ` (intento ${formatInteger(row.attempts)})` : ''}
        </Text>
      ) : (
        <Text size="sm" c="dimmed">
          {row.status === 'pending' ? `Se envía desde ${formatDateTime(row.sendAfter)}` : '—'}
        </Text>
      ),
  },
  { accessor: 'actions', title: '', textAlign: 'right', render: (row) => <RetryButton row={row} /> },
];

/**
 * Configuración → 'Correos' (administrators, decision 0035): every message of the outbox with its
 * state (pendiente, enviado, fallido with the SMTP server's answer, descartado and why), 'Reintentar'
 * on the failed and pending ones, a test message to oneself, and the holidays of the business days.
 */
export default function MailSection() {
  const list = useListParams({ filters: MAIL_FILTERS });
  const status = oneOf(MAIL_STATUSES, list.filters.estado);
  const messages = useMailMessages({
    page: list.page,
    pageSize: list.pageSize,
    ...(status ? { status } : {}),
  });
  const sendTest = useSendTestMail();
  const [sentTo, setSentTo] = useState<string | null>(null);

  return (
    <Stack gap="lg">
      <Paper withBorder radius="md" p="md">
        <Stack gap="sm">
          <Group justify="space-between" align="flex-end" wrap="wrap">
            <NativeSelect
              label="Estado"
              w={200}
              data={[
                { value: '', label: 'Todos' },
                ...MAIL_STATUSES.map((value) => ({ value, label: mailStatusLabels[value] })),
              ]}
              value={status ?? ''}
              onChange={(event) => list.setFilter('estado', event.currentTarget.value || null)}
            />
            <Button
              variant="default"
              loading={sendTest.isPending}
              onClick={() =>
                sendTest.mutate(undefined, {
                  onSuccess: (result) => setSentTo(result.to),
                  onError: (error) => notifyError(error.message),
                })
              }
            >
              Enviar correo de prueba
            </Button>
          </Group>
          {sentTo ? (
            <Alert
              color="blue"
              withCloseButton
              closeButtonLabel="Cerrar aviso"
              onClose={() => setSentTo(null)}
            >
              Se envió un correo de prueba a {sentTo}. Su estado aparece en la lista.
            </Alert>
          ) : null}
          <Text size="sm" c="dimmed">
            {messages.data?.transport === 'files'
              ? 'Sin servidor SMTP configurado: cada correo se guarda como archivo .eml en la carpeta de datos del servidor (DATA_DIR/mail).'
              : messages.data?.transport === 'smtp'
                ? 'Los correos salen por el servidor SMTP configurado (SMTP_URL). Los que el servidor rechaza por ahora se reintentan solos.'
                : ''}
          </Text>
        </Stack>
      </Paper>
      <ErrorAlert error={messages.error} />
      <ServerTable<MailListRow>
        {...list.table}
        aria-label="Correos"
        idAccessor="id"
        records={messages.data?.rows}
        total={messages.data?.total}
        totalIsCapped={messages.data?.totalIsCapped}
        fetching={messages.isFetching}
        error={messages.error}
        columns={columns}
        noRecordsText={status ? 'Ningún correo en este estado' : 'Aún no hay correos'}
      />
      <Title order={3} size="h4">
        Feriados
      </Title>
      <HolidaysSection />
    </Stack>
  );
}
