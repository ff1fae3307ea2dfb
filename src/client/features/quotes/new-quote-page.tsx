import {
  Alert,
  Button,
  Group,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { createQuoteBody } from '../../../shared/schemas/quotes';
import { paths } from '../../app/paths';
import { ErrorAlert } from '../../components/error-alert';
import { MoneyInput, PercentInput } from '../../components/money-input';
import { PageHeader } from '../../components/page-header';
import { RutInput } from '../../components/rut-input';
import { applyServerErrors, schemaErrors } from '../../lib/forms';
import { notifySaved } from '../../lib/notify';
import { useReservationFormOptions } from '../reservations/api';
import { type KnownUnit, type UnitChoice, UnitPicker } from '../stock';
import { useCreateQuote, useQuoteSettings } from './api';
import { EMPTY_QUOTE, type NewQuoteValues, quoteBody } from './new-quote-body';

const DISCOUNT_FIELDS = [
  ['columnDiscount', 'Descuento columna'],
  ['additionalDiscount', 'Descuento adicional'],
  ['otherDiscount', 'Otro descuento'],
] as const;

/**
 * /cotizaciones/nueva (issue 59): the prospect, the units among the project's available ones, the
 * discounts, the reserva, the pie and its cuotas, the subsidio. The server prices the quote from the
 * list in force and checks the commercial policy; the saved quote shows the plan in UF and pesos.
 */
export default function NewQuotePage() {
  const navigate = useNavigate();
  const options = useReservationFormOptions();
  const create = useCreateQuote();
  const known = useRef<Map<string, KnownUnit>>(new Map());
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<NewQuoteValues>({
    mode: 'controlled',
    initialValues: EMPTY_QUOTE,
    validate: (values) => {
      const errors = schemaErrors(createQuoteBody, quoteBody(values));
      if (errors.downPaymentFraction) errors.downPaymentPercent = errors.downPaymentFraction;
      return errors;
    },
  });
  const values = form.getValues();
  const settings = useQuoteSettings(values.projectId);
  const maxInstallments = settings.data?.maxInstallments;

  const chooseProject = (projectId: string | null) => {
    form.setValues({ projectId, apartmentUnitId: null, parkingUnitIds: [], storageUnitIds: [] });
  };
  const chooseUnits = (choice: UnitChoice) => form.setValues(choice);

  const submit = (submitted: NewQuoteValues) => {
    setFailure(null);
    create.mutate(quoteBody(submitted), {
      onSuccess: (quote) => {
        notifySaved(`Cotización N° ${quote.number} creada`);
        navigate(paths.quote(quote.id));
      },
      onError: (error) => {
        const fields = (error as { fields?: Record<string, string> }).fields ?? {};
        if (fields.downPaymentFraction) fields.downPaymentPercent = fields.downPaymentFraction;
        setFailure(applyServerErrors(form, error));
      },
    });
  };

  return (
    <>
      <PageHeader
        title="Nueva cotización"
        description="El servidor calcula los precios con la lista vigente y la política comercial del proyecto."
      />
      <ErrorAlert error={options.error} />
      <form onSubmit={form.onSubmit(submit)} noValidate>
        <Stack gap="md" maw={960}>
          {failure ? (
            <Alert color="red" title="No se pudo crear la cotización" role="alert">
              {failure}
            </Alert>
          ) : null}

          <Paper withBorder p="md" radius="md">
            <Title order={4} mb="sm">
              Prospecto
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput label="Nombre" required {...form.getInputProps('prospectName')} />
              <TextInput
                label="Correo electrónico"
                type="email"
                required
                {...form.getInputProps('prospectEmail')}
              />
              <TextInput label="Teléfono" {...form.getInputProps('prospectPhone')} />
              <RutInput label="RUT" {...form.getInputProps('prospectRut')} />
            </SimpleGrid>
          </Paper>

          <Paper withBorder p="md" radius="md">
            <Title order={4} mb="sm">
              Unidades
            </Title>
            <Select
              label="Proyecto"
              required
              searchable
              placeholder="Seleccione un proyecto"
              nothingFoundMessage="Ningún proyecto con ese nombre"
              data={(options.data?.projects ?? []).map((project) => ({
                value: project.id,
                label: `${project.name} · ${project.stage}`,
              }))}
              value={values.projectId}
              onChange={chooseProject}
              error={form.errors.projectId}
              maw={{ base: '100%', sm: 420 }}
            />
            {values.projectId ? (
              <Stack mt="md" gap={0}>
                <UnitPicker
                  projectId={values.projectId}
                  value={{
                    apartmentUnitId: values.apartmentUnitId,
                    parkingUnitIds: values.parkingUnitIds,
                    storageUnitIds: values.storageUnitIds,
                  }}
                  known={known.current}
                  onChange={chooseUnits}
                  errors={{
                    apartmentUnitId: form.errors.apartmentUnitId as string | undefined,
                    parkingUnitIds: form.errors.parkingUnitIds as string | undefined,
                    storageUnitIds: form.errors.storageUnitIds as string | undefined,
                  }}
                  disabled={create.isPending}
                />
              </Stack>
            ) : null}
          </Paper>

          <Paper withBorder p="md" radius="md">
            <Title order={4} mb="sm">
              Descuentos
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              {DISCOUNT_FIELDS.map(([field, label]) => (
                <PercentInput key={field} label={label} {...form.getInputProps(field)} />
              ))}
            </SimpleGrid>
          </Paper>

          <Paper withBorder p="md" radius="md">
            <Title order={4} mb="sm">
              Forma de pago
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }}>
              <MoneyInput label="Reserva" {...form.getInputProps('reservationAmount')} />
              <PercentInput label="Pie" {...form.getInputProps('downPaymentPercent')} />
              <NumberInput
                label="Número de cuotas"
                required
                min={1}
                max={maxInstallments}
                allowDecimal={false}
                allowNegative={false}
                hideControls
                inputWrapperOrder={['label', 'input', 'description', 'error']}
                description={maxInstallments ? `Máximo ${maxInstallments} en este proyecto` : undefined}
                {...form.getInputProps('installments')}
              />
              <MoneyInput label="Subsidio" {...form.getInputProps('subsidyAmount')} />
            </SimpleGrid>
            <Text size="xs" c="dimmed" mt="xs">
              El crédito hipotecario es el saldo: precio final menos pie y subsidio.
            </Text>
          </Paper>

          <Group justify="flex-end">
            <Button variant="default" onClick={() => navigate(paths.quotes)} disabled={create.isPending}>
              Cancelar
            </Button>
            <Button type="submit" loading={create.isPending}>
              Cotizar
            </Button>
          </Group>
        </Stack>
      </form>
    </>
  );
}
