import { Alert, Button, Group, Modal, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect } from 'react';
import { ACCOUNT_TYPES } from '../../../shared/domain/accounts';
import { formatRut } from '../../../shared/format';
import {
  type PromotionFields,
  type PromotionView,
  promotionFields,
} from '../../../shared/schemas/reservations';
import { DateField } from '../../components/date-field';
import { MoneyInput, toAmount } from '../../components/money-input';
import { RutInput } from '../../components/rut-input';
import { errorMessage } from '../../lib/api';
import { schemaErrors, useServerFieldErrors } from '../../lib/forms';

interface PromotionFormValues {
  amount: number | string;
  beneficiary: string;
  rut: string;
  bank: string;
  accountType: string | null;
  accountNumber: string;
  email: string;
  purchaseOrder: string;
  documentNumber: string;
  documentDate: string | null;
  paymentDate: string | null;
}

const EMPTY: PromotionFormValues = {
  amount: '',
  beneficiary: '',
  rut: '',
  bank: '',
  accountType: null,
  accountNumber: '',
  email: '',
  purchaseOrder: '',
  documentNumber: '',
  documentDate: null,
  paymentDate: null,
};

function fromView(promotion: PromotionView | null): PromotionFormValues {
  if (!promotion) return EMPTY;
  return {
    amount: Number(promotion.amount),
    beneficiary: promotion.beneficiary,
    rut: formatRut(promotion.rut),
    bank: promotion.bank,
    accountType: promotion.accountType,
    accountNumber: promotion.accountNumber,
    email: promotion.email,
    purchaseOrder: promotion.purchaseOrder ?? '',
    documentNumber: promotion.documentNumber ?? '',
    documentDate: promotion.documentDate,
    paymentDate: promotion.paymentDate,
  };
}

function toBody(values: PromotionFormValues): PromotionFields {
  return {
    amount: toAmount(values.amount),
    beneficiary: values.beneficiary,
    rut: values.rut,
    bank: values.bank,
    accountType: (values.accountType ?? '') as PromotionFields['accountType'],
    accountNumber: values.accountNumber,
    email: values.email,
    purchaseOrder: values.purchaseOrder || null,
    documentNumber: values.documentNumber || null,
    documentDate: values.documentDate,
    paymentDate: values.paymentDate,
  };
}

/**
 * The promotion popup (spec part 1 §5, part 2 §5): amount, beneficiary, RUT, bank, account type and
 * number, e-mail required; purchase order, document number, issue and payment dates optional.
 */
export function PromotionDialog({
  opened,
  promotion,
  saving,
  error,
  onSave,
  onCancel,
}: {
  opened: boolean;
  promotion: PromotionView | null;
  saving: boolean;
  error: unknown;
  onSave: (values: PromotionFields) => void;
  onCancel: () => void;
}) {
  const form = useForm<PromotionFormValues>({
    mode: 'controlled',
    initialValues: fromView(promotion),
    validate: (values) => {
      const errors = schemaErrors(promotionFields, toBody(values));
      if (toAmount(values.amount) === '')
        errors.amount = 'Ingrese el monto de la promoción (mayor o igual a 0, con hasta 2 decimales)';
      return errors;
    },
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: reset each time the popup opens.
  useEffect(() => {
    if (opened) {
      form.setValues(fromView(promotion));
      form.clearErrors();
    }
  }, [opened, promotion]);

  useServerFieldErrors(form, error);

  return (
    <Modal
      opened={opened}
      onClose={() => !saving && onCancel()}
      title={promotion ? 'Editar Promoción' : 'Agregar Promoción'}
      size="lg"
      closeOnClickOutside={!saving}
    >
      <form onSubmit={form.onSubmit((values) => onSave(toBody(values)))} noValidate>
        <Stack gap="sm">
          {error ? (
            <Alert color="red" role="alert">
              {errorMessage(error)}
            </Alert>
          ) : null}
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <MoneyInput label="Monto" required data-autofocus {...form.getInputProps('amount')} />
            <TextInput label="Beneficiario" required {...form.getInputProps('beneficiary')} />
            <RutInput label="RUT" required {...form.getInputProps('rut')} />
            <TextInput label="Correo Electrónico" type="email" required {...form.getInputProps('email')} />
            <TextInput label="Banco" required {...form.getInputProps('bank')} />
            <Select
              label="Tipo de Cuenta"
              required
              data={[...ACCOUNT_TYPES]}
              allowDeselect={false}
              comboboxProps={{ withinPortal: true }}
              {...form.getInputProps('accountType')}
            />
            <TextInput label="Número de Cuenta" required {...form.getInputProps('accountNumber')} />
            <TextInput label="Orden de Compra" {...form.getInputProps('purchaseOrder')} />
            <TextInput label="Número de Documento" {...form.getInputProps('documentNumber')} />
            <DateField label="Fecha de Emisión" clearable {...form.getInputProps('documentDate')} />
            <DateField label="Fecha de Pago" clearable {...form.getInputProps('paymentDate')} />
          </SimpleGrid>
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onCancel} disabled={saving}>
              Cancelar
            </Button>
            <Button type="submit" disabled={saving}>
              {saving ? 'Guardando...' : 'Guardar'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
