// Lives in the top bar of every screen: no floating-ui (Popover, Combobox, Tooltip) and no
// Spotlight (decision 0005). The results panel is a plain Paper under the input, an ARIA combobox.
import { Box, Group, Kbd, Loader, Paper, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useClickOutside, useDebouncedValue, useHotkeys, useOs } from '@mantine/hooks';
import { IconBuilding, IconFileText, IconLayoutGrid, IconSearch, IconUser } from '@tabler/icons-react';
import { type KeyboardEvent, type ReactNode, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { isSearchable, SEARCH_MAX_LENGTH } from '../../../shared/domain/global-search';
// Straight from the domain modules: shared/format would pull big.js and shared/schemas zod into
// the initial bundle.
import { formatRut } from '../../../shared/domain/rut';
import { formatPersonName } from '../../../shared/format/names';
import type { ClientHit, ReservationHit, SearchResults, UnitHit } from '../../../shared/schemas/search';
import { paths } from '../../app/paths';
import { useGlobalSearch } from './api';
import { SEARCH_LABEL, SEARCH_PLACEHOLDER } from './global-search-lazy';

export { SEARCH_PLACEHOLDER } from './global-search-lazy';

/** Spec part 1 §9: the search waits for a 300 ms pause in typing. */
export const SEARCH_DEBOUNCE_MS = 300;

type Kind = 'client' | 'reservation' | 'apartment' | 'unit';

export interface SearchOption {
  key: string;
  kind: Kind;
  title: string;
  subtitle: string;
  /** Where choosing it goes (spec part 1 §2 "Global search"). */
  to: string;
}

const GROUPS: { kind: Kind; label: string; icon: ReactNode }[] = [
  { kind: 'client', label: 'Clientes', icon: <IconUser size={18} stroke={1.6} /> },
  { kind: 'reservation', label: 'Reservas', icon: <IconFileText size={18} stroke={1.6} /> },
  { kind: 'apartment', label: 'Departamentos', icon: <IconBuilding size={18} stroke={1.6} /> },
  { kind: 'unit', label: 'Unidades', icon: <IconLayoutGrid size={18} stroke={1.6} /> },
];

// Here, not from shared/domain/stock (which pulls the number formats into the initial bundle).
const UNIT_KIND_TITLES: Record<UnitHit['kind'], string> = {
  apartment: 'Depto.',
  parking: 'Estacionamiento',
  storage: 'Bodega',
};

function unitOption(hit: UnitHit): SearchOption {
  return {
    key: `unit-${hit.id}`,
    kind: 'unit',
    title: `${UNIT_KIND_TITLES[hit.kind]} ${hit.number}`,
    subtitle: `${hit.projectName} ${hit.projectStage} · ${hit.status}`,
    to: hit.reservationFlowId
      ? paths.reservationFlow(hit.reservationFlowId)
      : `${paths.availability}?proyecto=${hit.projectId}`,
  };
}

function clientOption(hit: ClientHit): SearchOption {
  return {
    key: `client-${hit.id}`,
    kind: 'client',
    title: formatPersonName(hit),
    subtitle: [formatRut(hit.rut), hit.email].filter(Boolean).join(' · '),
    to: hit.reservationFlowId ? paths.reservationFlow(hit.reservationFlowId) : paths.editClient(hit.id),
  };
}

function reservationTarget(hit: ReservationHit): string {
  return hit.reservationFlowId ? paths.reservationFlow(hit.reservationFlowId) : paths.editReservation(hit.id);
}

const rescinded = (hit: ReservationHit) => (hit.isRescinded ? ' · Resciliada' : '');

function reservationOption(hit: ReservationHit): SearchOption {
  return {
    key: `reservation-${hit.id}`,
    kind: 'reservation',
    title: `Reserva ${hit.reservationNumber}`,
    subtitle: `${hit.clientName} · ${hit.projectName} ${hit.projectStage} · Depto. ${hit.apartmentNumber}${rescinded(hit)}`,
    to: reservationTarget(hit),
  };
}

function apartmentOption(hit: ReservationHit): SearchOption {
  return {
    key: `apartment-${hit.id}`,
    kind: 'apartment',
    title: `Depto. ${hit.apartmentNumber}`,
    subtitle: `${hit.projectName} ${hit.projectStage} · ${hit.clientName} · Reserva ${hit.reservationNumber}${rescinded(hit)}`,
    to: reservationTarget(hit),
  };
}

/** The results in display order: clients, reservations by number, reservations by apartment. */
export function searchOptions(results: SearchResults | undefined): SearchOption[] {
  if (!results) return [];
  return [
    ...results.clients.map(clientOption),
    ...results.reservationsByNumber.map(reservationOption),
    ...results.reservationsByApartment.map(apartmentOption),
    ...(results.units ?? []).map(unitOption),
  ];
}

/**
 * The top bar's global search (spec part 1 §2): three characters and a 300 ms pause, up to five
 * results per type. Arrows move, Enter opens, Escape closes; Ctrl/⌘+K focuses it. Mounted in place of
 * the shell's stand-in (./global-search-lazy), it starts with what was typed there and its focus.
 */
export function GlobalSearch({
  initialText = '',
  autoFocus = false,
}: {
  initialText?: string;
  autoFocus?: boolean;
}) {
  const navigate = useNavigate();
  const os = useOs();
  const id = useId();
  const listboxId = `${id}-listbox`;
  const inputRef = useRef<HTMLInputElement>(null);
  const [text, setText] = useState(initialText);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [debounced] = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  const searchable = isSearchable(debounced);
  const search = useGlobalSearch(debounced);
  const options = useMemo(() => (searchable ? searchOptions(search.data) : []), [searchable, search.data]);
  const wrapperRef = useClickOutside<HTMLDivElement>(() => setOpen(false));

  useHotkeys([['mod+K', () => inputRef.current?.focus()]]);

  // The stand-in had the focus: the caret stays after what was typed.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when mounted
  useEffect(() => {
    const input = inputRef.current;
    if (!autoFocus || !input) return;
    input.focus();
    input.setSelectionRange(input.value.length, input.value.length);
  }, []);

  // New results: nothing highlighted until the user moves.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the results change
  useEffect(() => setActive(-1), [options]);
  useEffect(() => {
    if (search.error) console.error('La búsqueda falló', search.error);
  }, [search.error]);

  const choose = (option: SearchOption) => {
    setOpen(false);
    setText('');
    inputRef.current?.blur();
    navigate(option.to);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(true);
      if (options.length === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current) => {
        if (current < 0) return step > 0 ? 0 : options.length - 1;
        return (current + step + options.length) % options.length;
      });
    } else if (event.key === 'Enter') {
      const option = options[active] ?? (options.length === 1 ? options[0] : undefined);
      if (open && option) {
        event.preventDefault();
        choose(option);
      }
    } else if (event.key === 'Escape') {
      if (open) {
        event.preventDefault();
        setOpen(false);
      } else if (text) {
        setText('');
      }
    }
  };

  const typing = text.trim() !== debounced;
  const showPanel = open && text.trim().length > 0;
  const activeOption = options[active];

  let body: ReactNode;
  if (!isSearchable(text)) {
    body = <PanelNote>Escriba al menos 3 caracteres</PanelNote>;
  } else if (options.length === 0 && (typing || search.isFetching)) {
    body = (
      <PanelNote>
        <Loader size="xs" type="dots" /> Buscando...
      </PanelNote>
    );
  } else if (search.isError) {
    body = <PanelNote>No se pudo completar la búsqueda. Intente nuevamente.</PanelNote>;
  } else if (options.length === 0) {
    body = <PanelNote>Sin resultados para «{debounced}»</PanelNote>;
  } else {
    body = GROUPS.map((group) => {
      const inGroup = options.filter((option) => option.kind === group.kind);
      if (inGroup.length === 0) return null;
      const labelId = `${id}-${group.kind}`;
      return (
        <Box key={group.kind} role="group" aria-labelledby={labelId} mb={4}>
          <Text id={labelId} size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" pt={6} pb={2}>
            {group.label}
          </Text>
          {inGroup.map((option) => {
            const index = options.indexOf(option);
            const selected = index === active;
            return (
              <UnstyledButton
                key={option.key}
                id={`${id}-option-${index}`}
                role="option"
                aria-selected={selected}
                tabIndex={-1}
                data-kind={option.kind}
                onMouseDown={(event) => event.preventDefault()}
                onMouseEnter={() => setActive(index)}
                onClick={() => choose(option)}
                display="block"
                w="100%"
                px="sm"
                py={6}
                style={{
                  borderRadius: 'var(--mantine-radius-sm)',
                  background: selected ? 'var(--mantine-color-blue-light)' : undefined,
                }}
              >
                <Group gap="sm" wrap="nowrap">
                  <Box c={selected ? 'blue' : 'dimmed'} style={{ display: 'flex' }}>
                    {group.icon}
                  </Box>
                  <Box style={{ minWidth: 0 }}>
                    <Text size="sm" fw={600} truncate>
                      {option.title}
                    </Text>
                    <Text size="xs" c="dimmed" truncate>
                      {option.subtitle}
                    </Text>
                  </Box>
                </Group>
              </UnstyledButton>
            );
          })}
        </Box>
      );
    });
  }

  return (
    <Box ref={wrapperRef} pos="relative" w="100%">
      <TextInput
        ref={inputRef}
        value={text}
        onChange={(event) => {
          setText(event.currentTarget.value);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onKeyDown={onKeyDown}
        placeholder={SEARCH_PLACEHOLDER}
        aria-label={SEARCH_LABEL}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={showPanel}
        aria-controls={listboxId}
        aria-activedescendant={showPanel && activeOption ? `${id}-option-${active}` : undefined}
        autoComplete="off"
        spellCheck={false}
        maxLength={SEARCH_MAX_LENGTH}
        leftSection={<IconSearch size={16} />}
        rightSection={
          search.isFetching && searchable ? (
            <Loader size={14} />
          ) : (
            <Kbd size="xs" visibleFrom="md">
              {os === 'macos' ? '⌘' : 'Ctrl'}+K
            </Kbd>
          )
        }
        rightSectionWidth={62}
        radius="md"
      />
      {showPanel ? (
        <Paper
          id={listboxId}
          role="listbox"
          aria-label="Resultados de la búsqueda"
          shadow="md"
          withBorder
          radius="md"
          p={4}
          style={{
            position: 'absolute',
            top: 'calc(100% + 4px)',
            left: 0,
            right: 0,
            zIndex: 300,
            maxHeight: 'min(70vh, 520px)',
            overflowY: 'auto',
          }}
        >
          {body}
        </Paper>
      ) : null}
    </Box>
  );
}

function PanelNote({ children }: { children: ReactNode }) {
  return (
    <Group gap={6} px="sm" py="xs" c="dimmed" fz="sm">
      {children}
    </Group>
  );
}
