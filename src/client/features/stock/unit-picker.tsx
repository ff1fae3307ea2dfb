import { MultiSelect, Select, SimpleGrid, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { dec, money } from '../../../shared/domain/decimal';
import type { UnitKind } from '../../../shared/domain/stock';
import { formatUF } from '../../../shared/format';
import type { PickerUnit } from '../../../shared/schemas/stock';
import { useUnitPicker } from './api';

/** The units a reservation holds, as the form keeps them. */
export interface UnitChoice {
  apartmentUnitId: string | null;
  parkingUnitIds: string[];
  storageUnitIds: string[];
}

/** What the chosen units put in the reservation: numbers and prices of the list in force. */
export interface UnitFigures {
  apartmentNumber: string;
  parkingNumber: string;
  storageNumber: string;
  apartmentPrice: string;
  parkingPrice: string;
  storagePrice: string;
}

/** A unit already known to the form (held by the reservation being edited, or picked). */
export type KnownUnit = Pick<PickerUnit, 'id' | 'kind' | 'number' | 'price'> &
  Partial<Pick<PickerUnit, 'floor' | 'typology'>>;

function labelOf(unit: KnownUnit) {
  return [
    unit.number,
    unit.floor !== undefined && unit.floor !== null ? `Piso ${unit.floor}` : null,
    unit.typology,
    unit.price ? formatUF(unit.price) : 'sin precio',
  ]
    .filter(Boolean)
    .join(' · ');
}

/** Whether the project has an inventory (then the form picks units instead of typing numbers). */
export function useProjectInventory(projectId: string | null) {
  const picker = useUnitPicker(projectId, 'apartment', '');
  return {
    hasInventory: picker.data?.hasInventory ?? false,
    isLoading: picker.isLoading && Boolean(projectId),
  };
}

/** The figures of a choice from the units known (their prices: the list in force, or the ones the reservation copied). */
export function unitFigures(choice: UnitChoice, known: ReadonlyMap<string, KnownUnit>): UnitFigures {
  const of = (ids: string[]) =>
    ids.map((id) => known.get(id)).filter((unit): unit is KnownUnit => Boolean(unit));
  const sum = (units: KnownUnit[]) =>
    money(units.reduce((total, unit) => total.plus(dec(unit.price)), dec(0)));
  const apartment = of(choice.apartmentUnitId ? [choice.apartmentUnitId] : []);
  const parking = of(choice.parkingUnitIds);
  const storage = of(choice.storageUnitIds);
  return {
    apartmentNumber: apartment[0]?.number ?? '',
    parkingNumber: parking.map((unit) => unit.number).join(', '),
    storageNumber: storage.map((unit) => unit.number).join(', '),
    apartmentPrice: apartment.length > 0 ? sum(apartment) : '',
    parkingPrice: sum(parking),
    storagePrice: sum(storage),
  };
}

function usePickerOptions(
  projectId: string,
  kind: UnitKind,
  known: Map<string, KnownUnit>,
  chosen: string[],
) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const picker = useUnitPicker(projectId, kind, debounced.trim());
  const rows = picker.data?.rows ?? [];
  for (const row of rows) known.set(row.id, row);
  const options = [...rows];
  for (const id of chosen) {
    const unit = known.get(id);
    if (unit && !options.some((row) => row.id === id)) options.unshift(unit as PickerUnit);
  }
  return {
    search,
    setSearch,
    isFetching: picker.isFetching,
    data: options.map((unit) => ({ value: unit.id, label: labelOf(unit) })),
  };
}

/**
 * The reservation form's units (issue 31): the apartment, parkings and storages among the project's
 * available units, searched on the server by number, typology or floor; the prices come from the
 * list in force (the server sets them again on save).
 */
export function UnitPicker({
  projectId,
  value,
  known,
  onChange,
  errors,
  disabled,
}: {
  projectId: string;
  value: UnitChoice;
  /** Every unit the form has seen (kept by the form across renders). */
  known: Map<string, KnownUnit>;
  onChange: (choice: UnitChoice) => void;
  errors: Partial<Record<keyof UnitChoice, string>>;
  disabled?: boolean;
}) {
  const apartments = usePickerOptions(
    projectId,
    'apartment',
    known,
    value.apartmentUnitId ? [value.apartmentUnitId] : [],
  );
  const parkings = usePickerOptions(projectId, 'parking', known, value.parkingUnitIds);
  const storages = usePickerOptions(projectId, 'storage', known, value.storageUnitIds);
  const noneFound = (fetching: boolean) =>
    fetching ? 'Buscando...' : 'Ninguna unidad disponible con esa búsqueda';
  return (
    <>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Select
          label="Departamento"
          required
          searchable
          clearable
          placeholder="Número, tipología o piso"
          searchValue={apartments.search}
          onSearchChange={apartments.setSearch}
          filter={({ options }) => options}
          comboboxProps={{ width: 320, position: 'bottom-start' }}
          data={apartments.data}
          nothingFoundMessage={noneFound(apartments.isFetching)}
          value={value.apartmentUnitId}
          onChange={(id) => onChange({ ...value, apartmentUnitId: id })}
          error={errors.apartmentUnitId}
          disabled={disabled}
        />
        <MultiSelect
          label="Estacionamientos"
          searchable
          clearable
          placeholder={value.parkingUnitIds.length ? undefined : 'Número o piso'}
          searchValue={parkings.search}
          onSearchChange={parkings.setSearch}
          filter={({ options }) => options}
          comboboxProps={{ width: 320, position: 'bottom-start' }}
          data={parkings.data}
          nothingFoundMessage={noneFound(parkings.isFetching)}
          value={value.parkingUnitIds}
          onChange={(ids) => onChange({ ...value, parkingUnitIds: ids })}
          error={errors.parkingUnitIds}
          disabled={disabled}
        />
        <MultiSelect
          label="Bodegas"
          searchable
          clearable
          placeholder={value.storageUnitIds.length ? undefined : 'Número o piso'}
          searchValue={storages.search}
          onSearchChange={storages.setSearch}
          filter={({ options }) => options}
          comboboxProps={{ width: 320, position: 'bottom-start' }}
          data={storages.data}
          nothingFoundMessage={noneFound(storages.isFetching)}
          value={value.storageUnitIds}
          onChange={(ids) => onChange({ ...value, storageUnitIds: ids })}
          error={errors.storageUnitIds}
          disabled={disabled}
        />
      </SimpleGrid>
      <Text size="xs" c="dimmed" mt={4}>
        Solo se ofrecen unidades disponibles; los precios son los de la lista vigente.
      </Text>
    </>
  );
}
