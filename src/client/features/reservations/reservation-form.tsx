import {
  Alert,
  Button,
  Checkbox,
  Grid,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useRef, useState } from 'react';
import { fractionToPercent, percentToFraction, reservationFigures } from '../../../shared/domain/pricing';
import { formatPersonName, formatUF } from '../../../shared/format';
import {
  type CreateReservationBody,
  createReservationBody,
  type ReservationFormOptions,
  type ReservationView,
} from '../../../shared/schemas/reservations';
import type { PolicyView } from '../../../shared/schemas/stock';
import { DateField } from '../../components/date-field';
import { useLeaveGuard } from '../../components/leave-guard';
import { discountProblem, MoneyInput, PercentInput, toAmount } from '../../components/money-input';
import { schemaErrors } from '../../lib/forms';
import { type KnownUnit, type UnitChoice, UnitPicker, unitFigures, useProjectInventory } from '../stock';
import { usePolicy } from '../stock/api';
import { type BrokerOption, useBrokerSearch } from './lookups';

export interface ReservationFormValues {
  reservationNumber: string;
  projectId: string | null;
  sellerId: string | null;
  reservationDate: string | null;
  apartmentNumber: string;
  parkingNumber: string;
  storageNumber: string;
  apartmentPrice: number | string;
  parkingPrice: number | string;
  storagePrice: number | string;
  /** Discounts are edited as percent (0–100) and sent as fractions. */
  columnDiscount: number | string;
  additionalDiscount: number | string;
  otherDiscount: number | string;
  reservationPayment: number | string;
  promisePayment: number | string;
  downPayment: number | string;
  creditPayment: number | string;
  subsidyPayment: number | string;
  isWithBroker: boolean;
  brokerId: string | null;
  /** The project's units, when it has an inventory (then the numbers and prices above are theirs). */
  apartmentUnitId: string | null;
  parkingUnitIds: string[];
  storageUnitIds: string[];
  /** An administrator's reason to exceed the project's commercial policy. */
  policyOverrideReason: string;
}

const PRICE_FIELDS = [
  ['apartmentPrice', 'Precio departamento'],
  ['parkingPrice', 'Precio estacionamiento'],
  ['storagePrice', 'Precio bodega'],
] as const;
const DISCOUNT_FIELDS = [
  ['columnDiscount', 'Descuento columna'],
  ['additionalDiscount', 'Descuento adicional'],
  ['otherDiscount', 'Otro descuento'],
] as const;
const SUMMARY_ROWS = [
  ['totalPrice', 'Precio lista', 'total-price'],
  ['minimumPrice', 'Precio mínimo', 'minimum-price'],
  ['totalPayment', 'Total escrituración', 'total-payment'],
  ['recoveryPayment', 'Total recuperación', 'recovery-payment'],
] as const;
const PAYMENT_FIELDS = [
  ['reservationPayment', 'Reserva'],
  ['promisePayment', 'Promesa'],
  ['downPayment', 'Pie'],
  ['creditPayment', 'Crédito hipotecario'],
  ['subsidyPayment', 'Bono Pie'],
] as const;

export function emptyReservationValues(defaultSellerId: string | null, today: string): ReservationFormValues {
  return {
    reservationNumber: '',
    projectId: null,
    sellerId: defaultSellerId,
    reservationDate: today,
    apartmentNumber: '',
    parkingNumber: '',
    storageNumber: '',
    apartmentPrice: '',
    parkingPrice: 0,
    storagePrice: 0,
    columnDiscount: 0,
    additionalDiscount: 0,
    otherDiscount: 0,
    reservationPayment: 0,
    promisePayment: 0,
    downPayment: 0,
    creditPayment: 0,
    subsidyPayment: 0,
    isWithBroker: false,
    brokerId: null,
    apartmentUnitId: null,
    parkingUnitIds: [],
    storageUnitIds: [],
    policyOverrideReason: '',
  };
}

export function reservationValuesOf(reservation: ReservationView): ReservationFormValues {
  return {
    reservationNumber: reservation.reservationNumber,
    projectId: reservation.projectId,
    sellerId: reservation.sellerId,
    reservationDate: reservation.reservationDate,
    apartmentNumber: reservation.apartmentNumber,
    parkingNumber: reservation.parkingNumber ?? '',
    storageNumber: reservation.storageNumber ?? '',
    apartmentPrice: Number(reservation.apartmentPrice),
    parkingPrice: Number(reservation.parkingPrice),
    storagePrice: Number(reservation.storagePrice),
    columnDiscount: fractionToPercent(reservation.columnDiscount),
    additionalDiscount: fractionToPercent(reservation.additionalDiscount),
    otherDiscount: fractionToPercent(reservation.otherDiscount),
    reservationPayment: Number(reservation.reservationPayment),
    promisePayment: Number(reservation.promisePayment),
    downPayment: Number(reservation.downPayment),
    creditPayment: Number(reservation.creditPayment),
    subsidyPayment: Number(reservation.subsidyPayment),
    isWithBroker: reservation.isWithBroker,
    brokerId: reservation.brokerId,
    apartmentUnitId: reservation.units.find((unit) => unit.kind === 'apartment')?.unitId ?? null,
    parkingUnitIds: reservation.units.filter((unit) => unit.kind === 'parking').map((unit) => unit.unitId),
    storageUnitIds: reservation.units.filter((unit) => unit.kind === 'storage').map((unit) => unit.unitId),
    policyOverrideReason: reservation.policyOverrideReason ?? '',
  };
}

/** The units a reservation holds, as the unit picker knows them (with the prices it copied). */
export function knownUnitsOf(reservation: ReservationView): KnownUnit[] {
  return reservation.units.map((unit) => ({
    id: unit.unitId,
    kind: unit.kind,
    number: unit.number,
    price: unit.price,
  }));
}

/**
 * A discount typed as a percent, as the fraction the API takes (empty: none). Out of range it stays
 * out of range (150 → '1.500000'), and text that is no number yet ('-') is sent as typed: the schema
 * refuses both with its message — here before saving, and on the server.
 */
function discountFraction(value: number | string): string {
  if (value === '') return percentToFraction(0);
  try {
    return percentToFraction(value);
  } catch {
    return String(value);
  }
}

/** The request body (without commission) for the values of the form and the chosen client. */
export function reservationBody(values: ReservationFormValues, clientId: string): CreateReservationBody {
  const zero = (value: number | string) => toAmount(value) || '0';
  return {
    reservationNumber: values.reservationNumber,
    clientId,
    projectId: values.projectId ?? '',
    sellerId: values.sellerId,
    reservationDate: values.reservationDate ?? '',
    apartmentNumber: values.apartmentNumber,
    parkingNumber: values.parkingNumber || null,
    storageNumber: values.storageNumber || null,
    apartmentPrice: toAmount(values.apartmentPrice),
    parkingPrice: zero(values.parkingPrice),
    storagePrice: zero(values.storagePrice),
    columnDiscount: discountFraction(values.columnDiscount),
    additionalDiscount: discountFraction(values.additionalDiscount),
    otherDiscount: discountFraction(values.otherDiscount),
    reservationPayment: zero(values.reservationPayment),
    promisePayment: zero(values.promisePayment),
    downPayment: zero(values.downPayment),
    creditPayment: zero(values.creditPayment),
    subsidyPayment: zero(values.subsidyPayment),
    isWithBroker: values.isWithBroker,
    brokerId: values.isWithBroker ? values.brokerId : null,
    apartmentUnitId: values.apartmentUnitId,
    parkingUnitIds: values.parkingUnitIds,
    storageUnitIds: values.storageUnitIds,
    policyOverrideReason: values.policyOverrideReason || null,
  };
}

/** The live preview of the figures the server will compute and store. */
export function previewFigures(values: ReservationFormValues) {
  try {
    return reservationFigures(reservationBody(values, ''));
  } catch {
    return null;
  }
}

function BrokerSelect({
  initial,
  ...props
}: { initial: BrokerOption | null } & Omit<React.ComponentProps<typeof Select>, 'data'>) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const brokers = useBrokerSearch(debounced);
  const options: BrokerOption[] = [...(brokers.data?.rows ?? [])];
  if (initial && !options.some((broker) => broker.id === initial.id)) options.unshift(initial);
  return (
    <Select
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      // The server already filtered by name, RUT or business name.
      filter={({ options: all }) => all}
      nothingFoundMessage={brokers.isFetching ? 'Buscando...' : 'No se encontraron brokers'}
      data={options.map((broker) => ({ value: broker.id, label: `${broker.name} · ${broker.businessName}` }))}
      {...props}
    />
  );
}

export interface ReservationFormProps {
  initialValues: ReservationFormValues;
  clientId: string;
  options: ReservationFormOptions;
  initialBroker: BrokerOption | null;
  saving: boolean;
  /** The general refusal message shown at the top; field messages are set with `fieldErrors`. */
  failure: string | null;
  fieldErrors: Record<string, string>;
  submitLabel: string;
  readOnly?: boolean;
  onSubmit: (values: ReservationFormValues) => void;
  onCancel: () => void;
  /** Every change of the values (the new-reservation page keeps them across 'Cambiar Cliente'). */
  onValuesChange?: (values: ReservationFormValues) => void;
  /** Values typed before the form was last shown: it starts from them, unsaved. */
  draft?: ReservationFormValues | null;
  /** The units the reservation holds (editing), so the picker can name them. */
  initialUnits?: KnownUnit[];
  /** An administrator may exceed the project's commercial policy with a reason. */
  canOverridePolicy?: boolean;
}

const POLICY_MAXIMUM: Record<(typeof DISCOUNT_FIELDS)[number][0], keyof PolicyView> = {
  columnDiscount: 'maxColumnDiscount',
  additionalDiscount: 'maxAdditionalDiscount',
  otherDiscount: 'maxOtherDiscount',
};

/**
 * The warning while a discount typed (a percent) exceeds the maximum the server says the project's
 * commercial policy allows; null within it, or with no maximum. The server decides on saving.
 */
export function policyWarning(
  policy: PolicyView | null,
  field: (typeof DISCOUNT_FIELDS)[number][0],
  typed: number | string,
): string | null {
  const maximum = policy?.[POLICY_MAXIMUM[field]];
  if (typeof maximum !== 'string') return null;
  const percent = typeof typed === 'number' ? typed : Number(typed);
  if (typed === '' || !Number.isFinite(percent)) return null;
  if (Number(percentToFraction(percent)) <= Number(maximum)) return null;
  return `Excede la política comercial del proyecto (máximo ${fractionToPercent(maximum).toLocaleString('es-CL')} %)`;
}

/** The reservation form of spec part 1 §2: data, prices, discounts (as %), payments, broker; figures live. */
export function ReservationForm({
  initialValues,
  clientId,
  options,
  initialBroker,
  saving,
  failure,
  fieldErrors,
  submitLabel,
  readOnly = false,
  onSubmit,
  onCancel,
  onValuesChange,
  draft,
  initialUnits = [],
  canOverridePolicy = false,
}: ReservationFormProps) {
  const knownUnits = useRef<Map<string, KnownUnit>>(new Map(initialUnits.map((unit) => [unit.id, unit])));
  const [inventoryProject, setInventoryProject] = useState<string | null>(initialValues.projectId);
  const inventory = useProjectInventory(inventoryProject);
  const form = useForm<ReservationFormValues>({
    mode: 'controlled',
    initialValues,
    onValuesChange,
    validate: (values) => {
      const errors = schemaErrors(createReservationBody, reservationBody(values, clientId));
      if (inventory.hasInventory && !values.apartmentUnitId) {
        delete errors.apartmentNumber;
        delete errors.apartmentPrice;
        errors.apartmentUnitId = 'Seleccione el departamento entre las unidades del proyecto';
      } else if (toAmount(values.apartmentPrice) === '') {
        errors.apartmentPrice =
          'Ingrese el precio del departamento (mayor o igual a 0, con hasta 2 decimales)';
      }
      return errors;
    },
  });
  const [appliedErrors, setAppliedErrors] = useState(fieldErrors);
  if (appliedErrors !== fieldErrors) {
    setAppliedErrors(fieldErrors);
    form.setErrors(fieldErrors);
  }

  // Values typed before 'Cambiar Cliente' come back, still unsaved.
  // biome-ignore lint/correctness/useExhaustiveDependencies: applied once, when the form is shown
  useEffect(() => {
    if (draft) form.setValues(draft);
  }, []);
  const leaveGuard = useLeaveGuard(form.isDirty() && !saving && !readOnly);
  // A refusal is shown above the form: brought into view and focused, or the user who pressed
  // 'Confirmar y crear reserva' far below would see nothing happen (issue 57).
  const failureRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!failure) return;
    failureRef.current?.scrollIntoView?.({ block: 'center', behavior: 'smooth' });
    failureRef.current?.focus({ preventScroll: true });
  }, [failure]);

  const values = form.getValues();
  if (values.projectId !== inventoryProject) setInventoryProject(values.projectId);
  const figures = previewFigures(values);
  const pickUnits = inventory.hasInventory && values.projectId !== null;
  const chooseUnits = (choice: UnitChoice) => {
    const numbers = unitFigures(choice, knownUnits.current);
    form.setValues({
      ...choice,
      ...numbers,
      apartmentPrice: numbers.apartmentPrice === '' ? '' : Number(numbers.apartmentPrice),
      parkingPrice: Number(numbers.parkingPrice),
      storagePrice: Number(numbers.storagePrice),
    });
  };
  const policy = usePolicy(values.projectId).data?.policy ?? null;
  // A discount out of range makes no minimum price: none is shown until it is corrected.
  const discountsOutOfRange = DISCOUNT_FIELDS.some(([field]) => discountProblem(values[field]) !== null);
  const projectData = options.projects.map((project) => ({
    value: project.id,
    label: `${project.name} · ${project.stage}`,
  }));
  const sellerData = options.sellers.map((seller) => ({
    value: seller.id,
    label: formatPersonName(seller),
  }));

  return (
    <>
      {leaveGuard}
      <form onSubmit={form.onSubmit(onSubmit)} noValidate>
        <fieldset disabled={readOnly || saving} style={{ border: 0, padding: 0, margin: 0 }}>
          <Grid gap="md">
            <Grid.Col span={{ base: 12, lg: 8 }}>
              <Stack gap="md">
                {failure ? (
                  <Alert color="red" role="alert" ref={failureRef} tabIndex={-1}>
                    {failure}
                  </Alert>
                ) : null}
                <Paper withBorder p="md" radius="md">
                  <Title order={4} mb="sm">
                    Datos de la reserva
                  </Title>
                  <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
                    <TextInput label="N° de reserva" required {...form.getInputProps('reservationNumber')} />
                    <Select
                      label="Proyecto"
                      required
                      searchable
                      data={projectData}
                      nothingFoundMessage="No hay proyectos"
                      {...form.getInputProps('projectId')}
                    />
                    <Select
                      label="Vendedor"
                      searchable
                      clearable
                      data={sellerData}
                      nothingFoundMessage="No hay vendedores"
                      {...form.getInputProps('sellerId')}
                    />
                    <DateField label="Fecha de reserva" required {...form.getInputProps('reservationDate')} />
                    {pickUnits ? null : (
                      <>
                        <TextInput
                          label="N° departamento"
                          required
                          {...form.getInputProps('apartmentNumber')}
                        />
                        <TextInput label="N° estacionamiento" {...form.getInputProps('parkingNumber')} />
                        <TextInput label="N° bodega" {...form.getInputProps('storageNumber')} />
                      </>
                    )}
                  </SimpleGrid>
                  {pickUnits && values.projectId ? (
                    <Stack mt="md" gap={0}>
                      <UnitPicker
                        projectId={values.projectId}
                        value={{
                          apartmentUnitId: values.apartmentUnitId,
                          parkingUnitIds: values.parkingUnitIds,
                          storageUnitIds: values.storageUnitIds,
                        }}
                        known={knownUnits.current}
                        onChange={chooseUnits}
                        errors={{
                          apartmentUnitId: form.errors.apartmentUnitId as string | undefined,
                          parkingUnitIds: form.errors.parkingUnitIds as string | undefined,
                          storageUnitIds: form.errors.storageUnitIds as string | undefined,
                        }}
                        disabled={readOnly || saving}
                      />
                    </Stack>
                  ) : null}
                </Paper>

                <Paper withBorder p="md" radius="md">
                  <Title order={4} mb="sm">
                    Precios y descuentos
                  </Title>
                  <SimpleGrid cols={{ base: 1, sm: 3 }}>
                    {PRICE_FIELDS.map(([field, label]) => (
                      <MoneyInput
                        key={field}
                        label={label}
                        required={field === 'apartmentPrice'}
                        readOnly={pickUnits}
                        description={pickUnits ? 'De la lista de precios vigente' : undefined}
                        {...form.getInputProps(field)}
                      />
                    ))}
                    {DISCOUNT_FIELDS.map(([field, label]) => {
                      const warning = policyWarning(policy, field, values[field]);
                      return (
                        <PercentInput
                          key={field}
                          label={label}
                          description={warning}
                          descriptionProps={{ c: 'orange.9', 'data-testid': `policy-warning-${field}` }}
                          {...form.getInputProps(field)}
                        />
                      );
                    })}
                  </SimpleGrid>
                  {canOverridePolicy ? (
                    <TextInput
                      mt="md"
                      label="Motivo de excepción a la política comercial"
                      description="Solo si la reserva excede la política comercial del proyecto (queda en el historial)."
                      {...form.getInputProps('policyOverrideReason')}
                    />
                  ) : null}
                </Paper>

                <Paper withBorder p="md" radius="md">
                  <Title order={4} mb="sm">
                    Forma de pago
                  </Title>
                  <SimpleGrid cols={{ base: 1, sm: 3 }}>
                    {PAYMENT_FIELDS.map(([field, label]) => (
                      <MoneyInput key={field} label={label} {...form.getInputProps(field)} />
                    ))}
                  </SimpleGrid>
                </Paper>

                <Paper withBorder p="md" radius="md">
                  <Title order={4} mb="sm">
                    Broker
                  </Title>
                  <Stack gap="sm">
                    <Checkbox
                      label="Venta con broker"
                      {...form.getInputProps('isWithBroker', { type: 'checkbox' })}
                      onChange={(event) => {
                        const checked = event.currentTarget.checked;
                        form.setFieldValue('isWithBroker', checked);
                        // Unchecking clears the broker (spec part 1 §5).
                        if (!checked) form.setFieldValue('brokerId', null);
                      }}
                    />
                    {values.isWithBroker ? (
                      <BrokerSelect
                        label="Broker"
                        required
                        placeholder="Buscar por nombre, RUT o razón social"
                        initial={initialBroker}
                        {...form.getInputProps('brokerId')}
                      />
                    ) : null}
                  </Stack>
                </Paper>
              </Stack>
            </Grid.Col>

            <Grid.Col span={{ base: 12, lg: 4 }}>
              <Paper withBorder p="md" radius="md" pos="sticky" top={80}>
                <Title order={4} mb="sm">
                  Resumen
                </Title>
                <Table aria-label="Resumen de la reserva">
                  <Table.Tbody>
                    {SUMMARY_ROWS.map(([field, label, testId]) => (
                      <Table.Tr key={field}>
                        <Table.Td fw={field === 'minimumPrice' ? 600 : undefined}>{label}</Table.Td>
                        <Table.Td
                          ta="right"
                          fw={field === 'minimumPrice' ? 600 : undefined}
                          data-testid={testId}
                        >
                          {figures && !(field === 'minimumPrice' && discountsOutOfRange)
                            ? formatUF(figures[field])
                            : '—'}
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
                <Text size="xs" c="dimmed" mt="xs">
                  Precio mínimo: departamento con los tres descuentos sucesivos, más estacionamiento y bodega.
                </Text>
                {readOnly ? null : (
                  <Group mt="md" grow>
                    <Button variant="default" onClick={onCancel} disabled={saving}>
                      Cancelar
                    </Button>
                    <Button type="submit" disabled={saving}>
                      {saving ? 'Guardando...' : submitLabel}
                    </Button>
                  </Group>
                )}
              </Paper>
            </Grid.Col>
          </Grid>
        </fieldset>
      </form>
    </>
  );
}
