import { NumberInput, Select, SimpleGrid, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  BROKER_INVOICE_KIND_LABELS,
  BROKER_INVOICE_KINDS,
  type BrokerInvoiceKind,
} from '../../../shared/domain/broker-invoices';
import { formatRut } from '../../../shared/domain/rut';
import { santiagoDateOf } from '../../../shared/format';
import {
  type BrokerInvoiceBody,
  type BrokerInvoiceView,
  brokerInvoiceBody,
} from '../../../shared/schemas/broker-invoices';
import { DateField } from '../../components/date-field';
import { FormDialog } from '../../components/form-dialog';
import { RutInput } from '../../components/rut-input';
import { schemaErrors, useServerFieldErrors } from '../../lib/forms';
import { notifySaved } from '../../lib/notify';
import { useSaveInvoice } from './api';

type Amount =
  | 'netAmount'
  | 'vatAmount'
  | 'totalAmount'
  | 'grossAmount'
  | 'withholdingAmount'
  | 'payableAmount';

/** The amounts each kind of document carries, with their names on the paper. */
const AMOUNTS: Record<BrokerInvoiceKind, { key: Amount; label: string }[]> = {
  taxed: [
    { key: 'netAmount', label: 'Neto' },
    { key: 'vatAmount', label: 'IVA (19 %)' },
    { key: 'totalAmount', label: 'Total' },
  ],
  exempt: [
    { key: 'netAmount', label: 'Monto exento' },
    { key: 'totalAmount', label: 'Total' },
  ],
  fees: [
    { key: 'grossAmount', label: 'Monto bruto' },
    { key: 'withholdingAmount', label: 'Retención' },
    { key: 'payableAmount', label: 'Líquido a pagar' },
  ],
};

interface Values {
  kind: BrokerInvoiceKind;
  issuerRut: string;
  folio: string;
  issueDate: string | null;
  receivedDate: string | null;
  amounts: Record<Amount, number | string>;
}

const amountOf = (value: number | string) => (value === '' ? null : String(value));

/**
 * The broker's invoice typed by hand (or its recorded figures corrected): the kind of document, the
 * issuer's RUT, folio, dates and the amounts the kind carries, in whole pesos. The server checks it
 * against the payment; this form only guides.
 */
export function InvoiceDialog({
  flowId,
  taskRowId,
  brokerRut,
  invoice,
  onClose,
}: {
  flowId: string;
  taskRowId: string;
  brokerRut: string;
  invoice: BrokerInvoiceView | null;
  onClose: () => void;
}) {
  const save = useSaveInvoice(flowId, taskRowId);
  const form = useForm<Values>({
    initialValues: {
      kind: invoice?.kind ?? 'taxed',
      issuerRut: formatRut(invoice?.issuerRut ?? brokerRut),
      folio: invoice?.folio ?? '',
      issueDate: invoice?.issueDate ?? null,
      receivedDate: invoice?.receivedDate ?? santiagoDateOf(new Date()),
      amounts: {
        netAmount: invoice?.netAmount ?? '',
        vatAmount: invoice?.vatAmount ?? '',
        totalAmount: invoice?.totalAmount ?? '',
        grossAmount: invoice?.grossAmount ?? '',
        withholdingAmount: invoice?.withholdingAmount ?? '',
        payableAmount: invoice?.payableAmount ?? '',
      },
    },
  });
  useServerFieldErrors(form, save.error);

  const submit = () => {
    const { values } = form;
    const body: BrokerInvoiceBody = {
      kind: values.kind,
      issuerRut: values.issuerRut,
      folio: values.folio,
      issueDate: values.issueDate ?? '',
      receivedDate: values.receivedDate ?? undefined,
      ...Object.fromEntries(AMOUNTS[values.kind].map(({ key }) => [key, amountOf(values.amounts[key])])),
      version: invoice?.version,
    };
    const errors = schemaErrors(brokerInvoiceBody, body);
    const shown = Object.fromEntries(
      Object.entries(errors).map(([key, message]) => [
        key.endsWith('Amount') ? `amounts.${key}` : key,
        message,
      ]),
    );
    form.setErrors(shown);
    if (Object.keys(shown).length > 0) return;
    save.mutate(body, {
      onSuccess: () => {
        notifySaved(invoice ? 'Factura corregida' : 'Factura registrada');
        onClose();
      },
    });
  };

  return (
    <FormDialog
      opened
      title={invoice ? 'Corregir factura del broker' : 'Ingresar factura del broker'}
      saving={save.isPending}
      error={save.error}
      size="lg"
      onSubmit={submit}
      onClose={onClose}
    >
      <Select
        label="Documento"
        required
        allowDeselect={false}
        data={BROKER_INVOICE_KINDS.map((kind) => ({ value: kind, label: BROKER_INVOICE_KIND_LABELS[kind] }))}
        {...form.getInputProps('kind')}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <RutInput label="RUT emisor" required {...form.getInputProps('issuerRut')} />
        <TextInput label="Folio" required inputMode="numeric" {...form.getInputProps('folio')} />
        <DateField label="Fecha de emisión" required {...form.getInputProps('issueDate')} />
        <DateField label="Fecha de recepción" required {...form.getInputProps('receivedDate')} />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
        {AMOUNTS[form.values.kind].map(({ key, label }) => (
          <NumberInput
            key={key}
            label={`${label} ($)`}
            required
            min={0}
            allowNegative={false}
            allowDecimal={false}
            thousandSeparator="."
            decimalSeparator=","
            {...form.getInputProps(`amounts.${key}`)}
          />
        ))}
      </SimpleGrid>
    </FormDialog>
  );
}
