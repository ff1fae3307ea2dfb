import { Select, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { DATA_REQUEST_DAYS } from '../../../shared/domain/privacy';
import { santiagoDateOf } from '../../../shared/format';
import {
  DATA_REQUEST_KINDS,
  type DataRequestBody,
  type DataRequestDetail,
  type DataRequestKind,
  dataRequestBody,
  dataRequestKindLabels,
} from '../../../shared/schemas/data-requests';
import { DateField } from '../../components/date-field';
import { FormDialog } from '../../components/form-dialog';
import { RutInput } from '../../components/rut-input';
import { schemaErrors, useServerFieldErrors } from '../../lib/forms';
import { useCreateDataRequest } from './api';

interface RegisterValues {
  kind: DataRequestKind | null;
  holderRut: string;
  receivedDate: string | null;
  details: string;
}

const KIND_CHOICES = DATA_REQUEST_KINDS.map((kind) => ({ value: kind, label: dataRequestKindLabels[kind] }));

/** The request's body as the API takes it (an empty detail sent as none). */
export function registerBody(values: RegisterValues): DataRequestBody {
  return {
    kind: values.kind as DataRequestKind,
    holderRut: values.holderRut,
    receivedDate: values.receivedDate ?? '',
    details: values.details.trim() ? values.details : null,
  };
}

/**
 * 'Registrar solicitud' (Ley 21.719): the kind, the holder's RUT, the day it was received (today in
 * Santiago by default; the 30 days count from it) and what the holder asked. The fields are checked
 * with the API's schema; the server's refusals land on their fields. `onRegistered` gets the request
 * as the server registered it (a RUT that is no client's comes back already answered).
 */
export function RegisterRequestDialog({
  opened,
  onClose,
  onRegistered,
}: {
  opened: boolean;
  onClose: () => void;
  onRegistered: (request: DataRequestDetail) => void;
}) {
  const create = useCreateDataRequest();
  const today = santiagoDateOf(new Date());
  const form = useForm<RegisterValues>({
    mode: 'controlled',
    initialValues: { kind: null, holderRut: '', receivedDate: today, details: '' },
    validate: (values) => schemaErrors(dataRequestBody, registerBody(values)),
  });
  useServerFieldErrors(form, create.error);

  const close = () => {
    if (create.isPending) return;
    form.reset();
    create.reset();
    onClose();
  };

  const submit = form.onSubmit((values) =>
    create.mutate(registerBody(values), {
      onSuccess: (request) => {
        form.reset();
        create.reset();
        onRegistered(request);
      },
    }),
  );

  return (
    <FormDialog
      opened={opened}
      title="Registrar solicitud"
      submitLabel="Registrar"
      saving={create.isPending}
      error={create.error}
      onSubmit={() => submit()}
      onClose={close}
    >
      <Select
        label="Tipo de solicitud"
        placeholder="Seleccione"
        required
        data={KIND_CHOICES}
        allowDeselect={false}
        comboboxProps={{ withinPortal: true }}
        data-autofocus
        key={form.key('kind')}
        {...form.getInputProps('kind')}
      />
      <RutInput
        label="RUT del titular"
        required
        description="Si no es el RUT de un cliente, la solicitud queda respondida: no se tratan datos de este titular."
        key={form.key('holderRut')}
        {...form.getInputProps('holderRut')}
      />
      <DateField
        label="Fecha de recepción"
        required
        maxDate={today}
        key={form.key('receivedDate')}
        {...form.getInputProps('receivedDate')}
      />
      <Text size="xs" c="dimmed" mt={-6}>
        El plazo de respuesta es de {DATA_REQUEST_DAYS} días corridos desde la recepción.
      </Text>
      <Textarea
        label="Detalle"
        description="Lo que pide el titular y cómo llegó la solicitud"
        autosize
        minRows={3}
        maxRows={8}
        maxLength={2000}
        key={form.key('details')}
        {...form.getInputProps('details')}
      />
    </FormDialog>
  );
}
