import {
  Alert,
  Button,
  Divider,
  Fieldset,
  Group,
  Modal,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect } from 'react';
import { commissionFigures } from '../../shared/domain/pricing';
import { clpFigureOf } from '../../shared/domain/uf';
import { formatPercent, formatUF } from '../../shared/format';
import { can } from '../../shared/permissions';
import {
  type CommissionView,
  type SaveCommissionBody,
  saveCommissionBody,
} from '../../shared/schemas/reservations';
import { errorMessage } from '../lib/api';
import { schemaErrors, useServerFieldErrors } from '../lib/forms';
import { useCurrentUser } from '../lib/session';
import { ClpText, useUfToday } from './clp-text';
import { DateField } from './date-field';
import { MoneyInput, toAmount } from './money-input';

export interface CommissionFormValues {
  commissionAmount: number | string;
  commissionIncludesTax: boolean;
  commissionForDiscount: boolean;
  paysSecondary: boolean;
  numberOfPayments: '1' | '2';
  firstPaymentPercentage: '25' | '50' | '100';
  purchaseOrder: string;
  invoice1: string;
  invoice1Date: string | null;
  payment1Date: string | null;
  invoice2: string;
  invoice2Date: string | null;
  payment2Date: string | null;
}

/** Defaults of a new commission (spec part 1 §4): includes tax, for discount, no secondary, one payment of 100 %. */
const NEW_COMMISSION: CommissionFormValues = {
  commissionAmount: '',
  commissionIncludesTax: true,
  commissionForDiscount: true,
  paysSecondary: false,
  numberOfPayments: '1',
  firstPaymentPercentage: '100',
  purchaseOrder: '',
  invoice1: '',
  invoice1Date: null,
  payment1Date: null,
  invoice2: '',
  invoice2Date: null,
  payment2Date: null,
};

function initialValues(commission: CommissionView | null | undefined): CommissionFormValues {
  if (!commission) return NEW_COMMISSION;
  return {
    commissionAmount: Number(commission.commissionAmount),
    commissionIncludesTax: commission.commissionIncludesTax,
    commissionForDiscount: commission.commissionForDiscount,
    paysSecondary: commission.paysSecondary,
    numberOfPayments: String(commission.numberOfPayments) as '1' | '2',
    firstPaymentPercentage: String(commission.firstPaymentPercentage) as '25' | '50' | '100',
    purchaseOrder: commission.purchaseOrder ?? '',
    invoice1: commission.invoice1 ?? '',
    invoice1Date: commission.invoice1Date,
    payment1Date: commission.payment1Date,
    invoice2: commission.invoice2 ?? '',
    invoice2Date: commission.invoice2Date,
    payment2Date: commission.payment2Date,
  };
}

/** The request body of the commission (the same shape on creation and on edit). */
export function commissionBody(values: CommissionFormValues): SaveCommissionBody {
  const twoPayments = values.numberOfPayments === '2';
  return {
    commissionAmount: toAmount(values.commissionAmount),
    commissionIncludesTax: values.commissionIncludesTax,
    commissionForDiscount: values.commissionForDiscount,
    paysSecondary: values.paysSecondary,
    numberOfPayments: twoPayments ? 2 : 1,
    firstPaymentPercentage: Number(values.firstPaymentPercentage) as 25 | 50 | 100,
    purchaseOrder: values.purchaseOrder || null,
    invoice1: values.invoice1 || null,
    invoice1Date: values.invoice1Date,
    payment1Date: values.payment1Date,
    invoice2: twoPayments ? values.invoice2 || null : null,
    invoice2Date: twoPayments ? values.invoice2Date : null,
    payment2Date: twoPayments ? values.payment2Date : null,
  };
}

export interface CommissionFormProps {
  /** The commission being edited, or null/undefined for a new one (spec defaults). */
  commission?: CommissionView | null | undefined;
  /** The reservation figures the live preview is computed from. */
  reservation: {
    minimumPrice: string;
    recoveryPayment: string;
    parkingPrice: string | number;
    storagePrice: string | number;
  };
  saving: boolean;
  /** A server refusal: its message shows above the fields, field messages on the fields. */
  error?: unknown;
  confirmLabel?: string;
  /** Shown but not editable (a rescinded reservation): no buttons. */
  readOnly?: boolean;
  onConfirm: (body: SaveCommissionBody) => void;
  onCancel: () => void;
  /** Told whenever the form starts or stops differing from what it was opened with. */
  onDirtyChange?: (dirty: boolean) => void;
}

/**
 * The broker commission's fields (spec part 1 §2, §5; part 2 'Commission edit'): amount, tax,
 * discount and secondary flags, one or two payments, invoices and dates, with the derived figures
 * (net, base, percentage, each payment, difference) shown live. Payment dates 1 and 2 are read-only
 * once the respective payment flow exists. Starts from the commission it is mounted with.
 */
export function CommissionForm({
  commission,
  reservation,
  saving,
  error,
  confirmLabel = 'Confirmar',
  readOnly = false,
  onConfirm,
  onCancel,
  onDirtyChange,
}: CommissionFormProps) {
  const user = useCurrentUser();
  // The server says whether this user sees the folios (decision 0076); a commission not yet saved
  // follows the session's actions, which the server also sets.
  const foliosShown = commission ? commission.foliosShown : can(user, 'documents.readRestricted');
  const form = useForm<CommissionFormValues>({
    mode: 'controlled',
    initialValues: initialValues(commission),
    validate: (values) => {
      const errors = schemaErrors(saveCommissionBody, commissionBody(values));
      if (toAmount(values.commissionAmount) === '') {
        errors.commissionAmount = 'Ingrese el monto de la comisión (mayor o igual a 0)';
      }
      return errors;
    },
  });

  const dirty = form.isDirty();
  // biome-ignore lint/correctness/useExhaustiveDependencies: report each change of dirtiness once.
  useEffect(() => {
    onDirtyChange?.(dirty);
  }, [dirty]);

  useServerFieldErrors(form, error);

  const values = form.getValues();
  const twoPayments = values.numberOfPayments === '2';
  const ufToday = useUfToday();
  const figures = (() => {
    try {
      const body = commissionBody(values);
      return commissionFigures(
        {
          commissionAmount: body.commissionAmount || '0',
          commissionIncludesTax: body.commissionIncludesTax,
          paysSecondary: body.paysSecondary,
          numberOfPayments: body.numberOfPayments,
          firstPaymentPercentage: body.firstPaymentPercentage,
        },
        reservation,
      );
    } catch {
      return null;
    }
  })();

  const setPayments = (next: string) => {
    form.setFieldValue('numberOfPayments', next as '1' | '2');
    form.setFieldValue('firstPaymentPercentage', next === '1' ? '100' : '50');
  };

  return (
    <form onSubmit={form.onSubmit((submitted) => onConfirm(commissionBody(submitted)))} noValidate>
      <Fieldset variant="unstyled" disabled={readOnly}>
        <Stack gap="sm">
          {error ? (
            <Alert color="red" role="alert">
              {errorMessage(error)}
            </Alert>
          ) : null}
          <MoneyInput
            label="Monto de la comisión"
            required
            data-autofocus
            {...form.getInputProps('commissionAmount')}
          />
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <Switch
              label="Incluye IVA"
              {...form.getInputProps('commissionIncludesTax', { type: 'checkbox' })}
            />
            <Switch
              label="Para descuento"
              {...form.getInputProps('commissionForDiscount', { type: 'checkbox' })}
            />
            <Switch label="Paga secundarios" {...form.getInputProps('paysSecondary', { type: 'checkbox' })} />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Stack gap={4}>
              <Text size="sm" fw={500}>
                Número de pagos
              </Text>
              <SegmentedControl
                aria-label="Número de pagos"
                data={[
                  { value: '1', label: '1 pago' },
                  { value: '2', label: '2 pagos' },
                ]}
                value={values.numberOfPayments}
                disabled={readOnly}
                onChange={setPayments}
              />
            </Stack>
            <Stack gap={4}>
              <Text size="sm" fw={500}>
                Porcentaje del primer pago
              </Text>
              <SegmentedControl
                aria-label="Porcentaje del primer pago"
                data={[
                  { value: '25', label: '25 %', disabled: !twoPayments },
                  { value: '50', label: '50 %', disabled: !twoPayments },
                  { value: '100', label: '100 %', disabled: twoPayments },
                ]}
                value={values.firstPaymentPercentage}
                disabled={readOnly}
                onChange={(next) => form.setFieldValue('firstPaymentPercentage', next as '25' | '50' | '100')}
              />
              {form.errors.firstPaymentPercentage ? (
                <Text size="xs" c="red">
                  {form.errors.firstPaymentPercentage}
                </Text>
              ) : null}
            </Stack>
          </SimpleGrid>

          <Divider label="Documentos y fechas" labelPosition="left" />
          {foliosShown ? (
            <TextInput label="Orden de compra" {...form.getInputProps('purchaseOrder')} />
          ) : (
            <Text size="sm" c="dimmed" data-testid="commission-folios-hidden">
              Los folios de la orden de compra y de las facturas solo los ven quienes pueden ver esos
              documentos.
            </Text>
          )}
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            {foliosShown ? <TextInput label="Factura 1" {...form.getInputProps('invoice1')} /> : null}
            <DateField label="Fecha factura 1" clearable {...form.getInputProps('invoice1Date')} />
            <DateField
              label="Fecha de pago 1"
              clearable
              disabled={commission?.hasFirstPaymentFlow}
              description={
                commission?.hasFirstPaymentFlow ? 'La registra el flujo del primer pago' : undefined
              }
              {...form.getInputProps('payment1Date')}
            />
          </SimpleGrid>
          {twoPayments ? (
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              {foliosShown ? <TextInput label="Factura 2" {...form.getInputProps('invoice2')} /> : null}
              <DateField label="Fecha factura 2" clearable {...form.getInputProps('invoice2Date')} />
              <DateField
                label="Fecha de pago 2"
                clearable
                disabled={commission?.hasSecondPaymentFlow}
                description={
                  commission?.hasSecondPaymentFlow ? 'La registra el flujo del segundo pago' : undefined
                }
                {...form.getInputProps('payment2Date')}
              />
            </SimpleGrid>
          ) : null}

          {figures ? (
            <Table withTableBorder mt="xs" aria-label="Cálculo de la comisión">
              <Table.Tbody>
                <Table.Tr>
                  <Table.Td>Comisión neta{values.commissionIncludesTax ? ' (sin IVA)' : ''}</Table.Td>
                  <Table.Td ta="right">{formatUF(figures.netCommission)}</Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Td>Base de comisión</Table.Td>
                  <Table.Td ta="right">{formatUF(figures.commissionBase)}</Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Td>Porcentaje de comisión</Table.Td>
                  <Table.Td ta="right">{formatPercent(figures.commissionPercentage)}</Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Td>Primer pago ({formatPercent(figures.firstPaymentPercentage)})</Table.Td>
                  <Table.Td ta="right">
                    {formatUF(figures.firstPaymentAmount)}
                    <PaymentPesos
                      amountUf={figures.firstPaymentAmount}
                      commission={commission}
                      payment={1}
                      uf={ufToday}
                    />
                  </Table.Td>
                </Table.Tr>
                {twoPayments ? (
                  <Table.Tr>
                    <Table.Td>Segundo pago ({formatPercent(figures.secondPaymentPercentage)})</Table.Td>
                    <Table.Td ta="right">
                      {formatUF(figures.secondPaymentAmount)}
                      <PaymentPesos
                        amountUf={figures.secondPaymentAmount}
                        commission={commission}
                        payment={2}
                        uf={ufToday}
                      />
                    </Table.Td>
                  </Table.Tr>
                ) : null}
                <Table.Tr>
                  <Table.Td>Diferencia</Table.Td>
                  <Table.Td ta="right" c={figures.difference.startsWith('-') ? 'red' : undefined}>
                    {formatUF(figures.difference)}
                  </Table.Td>
                </Table.Tr>
              </Table.Tbody>
            </Table>
          ) : null}

          {/* Read-only: nothing to save. */}
          <Group justify="flex-end" mt="sm" display={readOnly ? 'none' : undefined}>
            <Button variant="default" onClick={onCancel} disabled={saving}>
              Cancelar
            </Button>
            <Button type="submit" disabled={saving}>
              {saving ? 'Guardando...' : confirmLabel}
            </Button>
          </Group>
        </Stack>
      </Fieldset>
    </form>
  );
}

export interface CommissionDialogProps extends Omit<CommissionFormProps, 'onDirtyChange' | 'readOnly'> {
  opened: boolean;
  brokerName?: string | undefined;
}

/** The broker commission popup: the commission form, fresh from the stored commission at each opening. */
export function CommissionDialog({ opened, brokerName, ...form }: CommissionDialogProps) {
  return (
    <Modal
      opened={opened}
      onClose={() => !form.saving && form.onCancel()}
      title={<Text fw={700}>Comisión del Broker{brokerName ? ` · ${brokerName}` : ''}</Text>}
      size="lg"
      closeOnClickOutside={!form.saving}
    >
      <CommissionForm {...form} />
    </Modal>
  );
}

/**
 * A payment's pesos under its UF in the preview: frozen once the saved commission has that payment
 * dated, else today's estimate of the amount shown ('estimado'), or 'Valor UF no disponible'.
 */
function PaymentPesos({
  amountUf,
  commission,
  payment,
  uf,
}: {
  amountUf: string;
  commission: CommissionView | null | undefined;
  payment: 1 | 2;
  uf: ReturnType<typeof useUfToday>;
}) {
  if (uf.isPending) return null;
  const first = payment === 1;
  const figure = clpFigureOf({
    amountUf,
    paymentDate: (first ? commission?.payment1Date : commission?.payment2Date) ?? null,
    frozenClp: (first ? commission?.payment1Clp : commission?.payment2Clp) ?? null,
    frozenUfValue: (first ? commission?.payment1UfValue : commission?.payment2UfValue) ?? null,
    today: uf.today,
    todayUfValue: uf.value,
  });
  return (
    <Group justify="flex-end" data-testid={`payment-${payment}-clp`}>
      <ClpText figure={figure} compact />
    </Group>
  );
}
