import { Select, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { REPORT_DATE_TYPE_LABELS, REPORT_DATE_TYPES } from '../../../shared/schemas/reports';
import { DateField } from '../../components/date-field';
import { filterWidth } from '../../components/filter-bar';
import { brokerKeys, fetchBroker, useBrokers } from '../brokers/api';

const brokerLabel = (broker: { name: string; businessName: string }) =>
  `${broker.name} - ${broker.businessName}`;

/**
 * A broker, searched on the server by name, RUT or razón social (300 ms after typing), shown as
 * 'name - business name'; the chosen one keeps its label whatever the search.
 */
export function BrokerSelect({
  value,
  onChange,
  placeholder,
  clearable = false,
  width = 300,
}: {
  value: string | null;
  onChange: (value: string | null) => void;
  placeholder: string;
  clearable?: boolean;
  /** On a wide screen (px); the whole width on a phone. */
  width?: number;
}) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const brokers = useBrokers({ search: debounced || undefined, pageSize: 20 });
  const chosen = useQuery({
    queryKey: brokerKeys.detail(value ?? ''),
    queryFn: ({ signal }) => fetchBroker(value ?? '', signal),
    enabled: Boolean(value),
  });
  const options = (brokers.data?.rows ?? []).map((broker) => ({
    value: broker.id,
    label: brokerLabel(broker),
  }));
  if (chosen.data && !options.some((option) => option.value === chosen.data.id)) {
    options.unshift({ value: chosen.data.id, label: brokerLabel(chosen.data) });
  }
  const chosenLabel = value ? options.find((option) => option.value === value)?.label : undefined;
  return (
    <>
      <Select
        label="Broker"
        placeholder={placeholder}
        data={options}
        value={value}
        onChange={(next) => {
          onChange(next);
          setSearch('');
        }}
        searchable
        searchValue={search}
        onSearchChange={setSearch}
        // The server already searched: show what it answered.
        filter={({ options: all }) => all}
        clearable={clearable}
        maxDropdownHeight="15rem"
        nothingFoundMessage="Ningún broker con ese nombre"
        w={filterWidth(width)}
      />
      {/* A phone's box cuts a long razón social: the chosen broker in full under it, on a phone only. */}
      {chosenLabel ? (
        <Text hiddenFrom="sm" size="xs" c="dimmed" mt={-8} data-testid="broker-chosen">
          {chosenLabel}
        </Text>
      ) : null}
    </>
  );
}

/** The date type (Fecha de Reserva, Promesa, Escritura) and the range 'Desde'–'Hasta'. */
export function DateRangeFilters({
  dateType,
  fromDate,
  toDate,
  onChange,
}: {
  dateType: string | undefined;
  fromDate: string | undefined;
  toDate: string | undefined;
  onChange: (filter: 'tipoFecha' | 'desde' | 'hasta', value: string | null) => void;
}) {
  return (
    <>
      <Select
        label="Tipo de fecha"
        data={REPORT_DATE_TYPES.map((type) => ({ value: type, label: REPORT_DATE_TYPE_LABELS[type] }))}
        value={dateType ?? 'reservation'}
        onChange={(value) => onChange('tipoFecha', value === 'reservation' ? null : value)}
        allowDeselect={false}
        w={filterWidth(180)}
      />
      <DateField
        label="Fecha de inicio"
        value={fromDate ?? null}
        onChange={(value) => onChange('desde', value)}
        maxDate={toDate}
        clearable
        clearButtonProps={{ 'aria-label': 'Borrar la fecha de inicio' }}
        w={filterWidth(160)}
      />
      <DateField
        label="Fecha de término"
        value={toDate ?? null}
        onChange={(value) => onChange('hasta', value)}
        minDate={fromDate}
        clearable
        clearButtonProps={{ 'aria-label': 'Borrar la fecha de término' }}
        w={filterWidth(160)}
      />
    </>
  );
}
