import {
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  IconArrowLeft,
  IconBraces,
  IconEraser,
  IconEye,
  IconFileSpreadsheet,
  IconLock,
  IconUserEdit,
} from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { Link, useParams } from 'react-router';
import { formatRut } from '../../../shared/domain/rut';
import { errorCatalog } from '../../../shared/errors';
import { formatDate, formatDateTime, formatInteger, formatPersonName } from '../../../shared/format';
import { can } from '../../../shared/permissions';
import {
  DATA_REQUEST_STATUSES,
  type DataRequestDetail,
  type DataRequestKind,
  type DataRequestStatus,
  dataRequestKindLabels,
  dataRequestStatusLabels,
  dataRequestUpdateBody,
} from '../../../shared/schemas/data-requests';
import { paths } from '../../app/paths';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ErrorAlert } from '../../components/error-alert';
import { useLeaveGuard } from '../../components/leave-guard';
import { PageHeader } from '../../components/page-header';
import { FormFailureAlert, RecordFormPage, useRecordSubmit } from '../../components/record-form';
import { downloadOnClick } from '../../lib/download';
import { schemaErrors } from '../../lib/forms';
import { notifySaved } from '../../lib/notify';
import { useCurrentUser } from '../../lib/session';
import { holderExportHref, useDataRequest, useRestrictHolder, useUpdateDataRequest } from './api';
import { BlockedValuesDialog } from './blocked-values-dialog';
import { Deadline, holderName, RequestStatusBadge, restrictionLabels } from './request-parts';
import { SuppressDialog } from './suppress-dialog';

const REGISTER = paths.settingsTab('solicitudes-titulares');

type Allowance = DataRequestDetail['actions'][keyof DataRequestDetail['actions']];

const fullName = (person: { firstName: string; lastName: string } | null) =>
  person ? formatPersonName(person) : '—';

function Card({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  return (
    <Paper withBorder radius="md" p="md" h="100%" data-testid={testId}>
      <Title order={3} size="h4" mb="sm">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

/** A labelled value of a card. */
function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2} style={{ minWidth: 0 }}>
      <Text size="xs" c="dimmed" fw={500}>
        {label}
      </Text>
      <div style={{ overflowWrap: 'anywhere' }}>{children}</div>
    </Stack>
  );
}

/** The request: its kind, dates, countdown, who registered and handled it, what the holder asked. */
function RequestCard({ request }: { request: DataRequestDetail }) {
  return (
    <Card title="Solicitud" testId="request-card">
      <SimpleGrid cols={2} spacing="sm" verticalSpacing="sm">
        <Field label="Tipo">
          <Text size="sm" fw={600}>
            {dataRequestKindLabels[request.kind]}
          </Text>
        </Field>
        <Field label="Estado">
          <RequestStatusBadge status={request.status} />
        </Field>
        <Field label="Recibida">
          <Text size="sm">{formatDate(request.receivedDate)}</Text>
        </Field>
        <Field label="Vence">
          <Deadline request={request} />
        </Field>
        <Field label="Registrada por">
          <Text size="sm">{fullName(request.createdBy)}</Text>
          <Text size="xs" c="dimmed">
            {formatDateTime(request.createdAt)}
          </Text>
        </Field>
        <Field label="Atendida por">
          <Text size="sm">{fullName(request.handledBy)}</Text>
          {request.answeredAt ? (
            <Text size="xs" c="dimmed">
              Cerrada el {formatDateTime(request.answeredAt)}
            </Text>
          ) : null}
        </Field>
      </SimpleGrid>
      <Stack mt="sm">
        <Field label="Detalle">
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {request.details ?? '—'}
          </Text>
        </Field>
      </Stack>
    </Card>
  );
}

/** Whose request it is: the client (a link to their record while it is a live one), or a RUT that is no client's. */
function HolderCard({ request }: { request: DataRequestDetail }) {
  const { holder } = request;
  return (
    <Card title="Titular" testId="holder-card">
      <SimpleGrid cols={2} spacing="sm" verticalSpacing="sm">
        <Field label="Nombre">
          {holder && !holder.isDeleted ? (
            <Anchor component={Link} to={paths.editClient(holder.clientId)} size="sm">
              {holder.name}
            </Anchor>
          ) : (
            <Text size="sm" c={holder ? undefined : 'dimmed'}>
              {holder ? holder.name : '—'}
            </Text>
          )}
        </Field>
        <Field label="RUT">
          <Text size="sm">{formatRut(request.holderRut)}</Text>
        </Field>
        {holder ? (
          <>
            <Field label="Reservas">
              <Text size="sm">{formatInteger(holder.reservations)}</Text>
            </Field>
            <Field label="Restricción">
              {holder.isSuppressed ? (
                <Badge color="gray" variant="light">
                  Datos suprimidos
                </Badge>
              ) : holder.restriction ? (
                <Text size="sm" fw={600} c={holder.restriction === 'blocking' ? 'red' : 'orange'}>
                  {restrictionLabels[holder.restriction]}
                </Text>
              ) : (
                <Text size="sm">Ninguna</Text>
              )}
            </Field>
          </>
        ) : null}
      </SimpleGrid>
      {holder ? null : (
        <Text size="sm" c="dimmed" mt="sm">
          El RUT no corresponde a ningún cliente: no se tratan datos de este titular.
        </Text>
      )}
    </Card>
  );
}

/** One action: its control and, when the server refuses it now, why (the server's words). */
function ActionRow({
  allowance,
  title,
  description,
  children,
  testId,
}: {
  allowance: Allowance;
  /** Over the controls, when they do not name the action themselves. */
  title?: string;
  description: string;
  children: ReactNode;
  testId: string;
}) {
  return (
    <Stack gap={4} data-testid={testId}>
      {title ? (
        <Text size="sm" fw={500}>
          {title}
        </Text>
      ) : null}
      <Group gap="xs">{children}</Group>
      <Text size="xs" c={allowance.allowed ? 'dimmed' : undefined} data-testid={`${testId}-hint`}>
        {allowance.allowed ? description : allowance.reason}
      </Text>
    </Stack>
  );
}

/** 'Aplicar oposición' or 'Bloquear datos': what the request's kind asks the restriction to be. */
function restrictLabel(kind: DataRequestKind): string {
  if (kind === 'opposition') return 'Aplicar oposición';
  if (kind === 'blocking') return 'Bloquear datos';
  return 'Aplicar oposición o bloqueo';
}

function restrictQuestion(kind: DataRequestKind, name: string): string {
  return kind === 'blocking'
    ? `Los datos de ${name} quedarán bloqueados: no se podrán modificar ni registrar nuevas reservas a su nombre hasta que un administrador levante el bloqueo, y las exportaciones de informes y aprobaciones mostrarán «Datos restringidos» en lugar de su nombre y RUT. La solicitud quedará respondida.`
    : `Se registrará la oposición de ${name} al tratamiento de sus datos: el cliente quedará marcado y las exportaciones de informes y aprobaciones mostrarán «Datos restringidos» en lugar de su nombre y RUT. La solicitud quedará respondida.`;
}

/**
 * What can be done about the request, exactly as the server's `actions` say: each control enabled or
 * disabled with the server's reason below it. No rule is decided here.
 */
export function ActionsCard({ request }: { request: DataRequestDetail }) {
  const { actions, holder } = request;
  const restrict = useRestrictHolder(request.id);
  const [dialog, setDialog] = useState<'suppress' | 'restrict' | 'blocked' | null>(null);
  const name = holderName(request);
  const exportable = actions.exportData.allowed && holder !== null;
  const clientId = holder?.clientId ?? '';

  return (
    <Card title="Acciones" testId="actions-card">
      <Stack gap="md">
        <ActionRow
          allowance={actions.exportData}
          testId="action-export"
          title="Exportar datos del titular"
          description="Todos sus datos: ficha, reservas, comentarios, historial y solicitudes (acceso y portabilidad)."
        >
          {exportable ? (
            <>
              <Button
                component="a"
                href={holderExportHref(clientId, 'json')}
                download
                onClick={downloadOnClick(holderExportHref(clientId, 'json'))}
                aria-label="Exportar datos del titular (JSON)"
                variant="default"
                leftSection={<IconBraces size={16} />}
              >
                JSON
              </Button>
              <Button
                component="a"
                href={holderExportHref(clientId, 'xlsx')}
                download
                onClick={downloadOnClick(holderExportHref(clientId, 'xlsx'))}
                aria-label="Exportar datos del titular (Excel)"
                variant="default"
                leftSection={<IconFileSpreadsheet size={16} />}
              >
                Excel
              </Button>
            </>
          ) : (
            <>
              <Button
                variant="default"
                leftSection={<IconBraces size={16} />}
                aria-label="Exportar datos del titular (JSON)"
                disabled
              >
                JSON
              </Button>
              <Button
                variant="default"
                leftSection={<IconFileSpreadsheet size={16} />}
                aria-label="Exportar datos del titular (Excel)"
                disabled
              >
                Excel
              </Button>
            </>
          )}
        </ActionRow>
        <ActionRow
          allowance={actions.rectify}
          testId="action-rectify"
          description="Corrija sus datos en la ficha del cliente."
        >
          {actions.rectify.allowed && holder ? (
            <Button
              component={Link}
              to={paths.editClient(holder.clientId)}
              variant="default"
              leftSection={<IconUserEdit size={16} />}
            >
              Editar cliente
            </Button>
          ) : (
            <Button variant="default" leftSection={<IconUserEdit size={16} />} disabled>
              Editar cliente
            </Button>
          )}
        </ActionRow>
        <ActionRow
          allowance={actions.restrict}
          testId="action-restrict"
          description="Marca al cliente y deja la solicitud respondida; se levanta desde la ficha del cliente."
        >
          <Button
            variant="light"
            color="orange"
            leftSection={<IconLock size={16} />}
            disabled={!actions.restrict.allowed}
            onClick={() => {
              restrict.reset();
              setDialog('restrict');
            }}
          >
            {restrictLabel(request.kind)}
          </Button>
        </ActionRow>
        <ActionRow
          allowance={actions.suppress}
          testId="action-suppress"
          description="Borra sus datos personales en todo el sistema. Es irreversible."
        >
          <Button
            variant="light"
            color="red"
            leftSection={<IconEraser size={16} />}
            disabled={!actions.suppress.allowed}
            onClick={() => setDialog('suppress')}
          >
            Suprimir datos personales
          </Button>
        </ActionRow>
        {actions.readBlockedValues.allowed ? (
          <Stack gap={4} data-testid="action-blocked">
            <Group>
              <Button
                variant="default"
                leftSection={<IconEye size={16} />}
                onClick={() => setDialog('blocked')}
              >
                Ver datos bloqueados
              </Button>
            </Group>
            <Text size="xs" c="dimmed">
              Lo que un deber legal obliga a conservar. Cada lectura queda registrada en la auditoría.
            </Text>
          </Stack>
        ) : null}
      </Stack>
      <ConfirmDialog
        opened={dialog === 'restrict'}
        title={restrictLabel(request.kind)}
        confirmLabel={restrictLabel(request.kind)}
        pendingLabel="Aplicando..."
        confirmColor="orange"
        loading={restrict.isPending}
        error={restrict.error}
        onClose={() => setDialog(null)}
        onConfirm={() =>
          restrict.mutate(undefined, {
            onSuccess: (updated) => {
              notifySaved(
                updated.holder?.restriction === 'blocking' ? 'Datos bloqueados' : 'Oposición registrada',
              );
              setDialog(null);
            },
          })
        }
      >
        {restrictQuestion(request.kind, name)}
      </ConfirmDialog>
      {actions.suppress.allowed || dialog === 'suppress' ? (
        <SuppressDialog
          opened={dialog === 'suppress'}
          requestId={request.id}
          holderName={name}
          onClose={() => setDialog(null)}
        />
      ) : null}
      {holder && actions.readBlockedValues.allowed ? (
        <BlockedValuesDialog
          opened={dialog === 'blocked'}
          clientId={holder.clientId}
          onClose={() => setDialog(null)}
        />
      ) : null}
    </Card>
  );
}

interface ResponseValues {
  status: DataRequestStatus;
  response: string;
}

const STATUS_CHOICES = DATA_REQUEST_STATUSES.map((status) => ({
  value: status,
  label: dataRequestStatusLabels[status],
}));

/** The request's body as the API takes it (an empty answer sent as none). */
export function responseBody(values: ResponseValues, version: number) {
  return { status: values.status, response: values.response.trim() ? values.response : null, version };
}

/** Its status and the answer given to the holder, saved with the version read ('Respondida' needs the answer). */
function ResponseCard({ request, onReload }: { request: DataRequestDetail; onReload: () => void }) {
  const save = useUpdateDataRequest(request.id);
  const form = useForm<ResponseValues>({
    mode: 'controlled',
    initialValues: { status: request.status, response: request.response ?? '' },
    validate: (values) => schemaErrors(dataRequestUpdateBody, responseBody(values, request.version)),
  });
  const leaveGuard = useLeaveGuard(form.isDirty() && !save.isPending);
  const { submit, failure } = useRecordSubmit(form, async (values) => {
    await save.mutateAsync(responseBody(values, request.version));
    notifySaved('Solicitud actualizada');
  });
  return (
    <Card title="Respuesta al titular" testId="response-card">
      {leaveGuard}
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <FormFailureAlert failure={failure} onReload={onReload} />
          <Select
            label="Estado"
            data={STATUS_CHOICES}
            allowDeselect={false}
            required
            maw={260}
            key={form.key('status')}
            {...form.getInputProps('status')}
          />
          <Textarea
            label="Respuesta"
            description="Lo que se respondió al titular; obligatoria para marcarla Respondida."
            autosize
            minRows={3}
            maxRows={12}
            maxLength={4000}
            key={form.key('response')}
            {...form.getInputProps('response')}
          />
          <Group justify="flex-end">
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? 'Guardando...' : 'Guardar'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

function RequestDetail({ request, onReload }: { request: DataRequestDetail; onReload: () => void }) {
  return (
    <>
      <PageHeader
        title={`Solicitud de ${dataRequestKindLabels[request.kind]}`}
        description={`${holderName(request)} · Recibida el ${formatDate(request.receivedDate)}`}
        actions={<RequestStatusBadge status={request.status} size="lg" />}
      />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <RequestCard request={request} />
        <HolderCard request={request} />
        <ActionsCard request={request} />
        {/* A new version (a save, an action answering it) starts the form from what the server holds. */}
        <ResponseCard key={request.version} request={request} onReload={onReload} />
      </SimpleGrid>
    </>
  );
}

/**
 * /configuracion/solicitudes-titulares/{id} (administrators; Ley 21.719, decision 0027): a holder's
 * request — its data and countdown, the holder, what can be done about it as the server allows
 * (export, rectify, oppose or block, suppress; the blocked values of a suppressed holder), and its
 * status and answer.
 */
export default function DataRequestPage() {
  const { id } = useParams<{ id: string }>();
  const user = useCurrentUser();
  const allowed = can(user, 'dataRequests.manage');
  const request = useDataRequest(allowed ? id : undefined);
  const back = (
    <Group mb="sm">
      <Button component={Link} to={REGISTER} variant="default" leftSection={<IconArrowLeft size={16} />}>
        Volver
      </Button>
    </Group>
  );

  if (!allowed) {
    return (
      <>
        <PageHeader title="Solicitud de titular" />
        <ErrorAlert error={errorCatalog.FORBIDDEN.message} />
      </>
    );
  }
  return (
    <RecordFormPage
      id={id}
      record={request}
      title="Solicitud de titular"
      what="la solicitud"
      backTo={REGISTER}
      backLabel="Volver a Solicitudes de titulares"
    >
      {({ record, onReload }) =>
        record ? (
          <>
            {back}
            <RequestDetail request={record} onReload={onReload} />
          </>
        ) : null
      }
    </RecordFormPage>
  );
}
