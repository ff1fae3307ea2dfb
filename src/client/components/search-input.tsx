import { CloseButton, TextInput, type TextInputProps } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';

export interface SearchInputProps extends Omit<TextInputProps, 'value' | 'defaultValue' | 'onChange'> {
  /** The applied search (e.g. `useListParams().search`, kept in the URL). */
  value: string;
  /** Called with the trimmed text 300 ms after the user stops typing, at once on Enter or clear. */
  onSearch: (value: string) => void;
  debounceMs?: number;
  /**
   * When to search: after a pause in typing (the default), or only on Enter ('enter': lists the spec
   * searches on Enter). Either way, clearing the box searches at once.
   */
  searchOn?: 'pause' | 'enter';
}

/**
 * A search box that waits for a pause before searching (300 ms by default).
 *
 *   const list = useListParams();
 *   <SearchInput value={list.search} onSearch={list.setSearch} placeholder="Buscar por RUT o nombre" />
 *
 * The text follows `value` when it changes from outside (back/forward, a link), so the URL stays
 * the single source of truth.
 */
export function SearchInput({
  value,
  onSearch,
  debounceMs = 300,
  searchOn = 'pause',
  placeholder = 'Buscar...',
  ...props
}: SearchInputProps) {
  const [text, setText] = useState(value);
  const lastSent = useRef(value);

  useEffect(() => {
    if (value !== lastSent.current) {
      lastSent.current = value;
      setText(value);
    }
  }, [value]);

  const send = (next: string) => {
    const trimmed = next.trim();
    if (trimmed === lastSent.current.trim()) return;
    lastSent.current = trimmed;
    onSearch(trimmed);
  };
  const debounced = useDebouncedCallback(send, debounceMs);

  return (
    <TextInput
      type="search"
      aria-label={typeof props.label === 'string' ? undefined : placeholder}
      placeholder={placeholder}
      leftSection={<IconSearch size={16} />}
      rightSection={
        text ? (
          <CloseButton
            aria-label="Limpiar búsqueda"
            size="sm"
            onClick={() => {
              debounced.cancel();
              setText('');
              send('');
            }}
          />
        ) : null
      }
      {...props}
      value={text}
      onChange={(event) => {
        const next = event.currentTarget.value;
        setText(next);
        if (searchOn === 'pause') debounced(next);
        else if (next.trim() === '') send('');
      }}
      // Leaving the field sends what is typed at once: a debounced search that fired after a click
      // on a row's link navigated back to the list (a journey caught it opening a user's form).
      onBlur={(event) => {
        if (searchOn === 'pause') debounced.flush();
        props.onBlur?.(event);
      }}
      onKeyDown={(event) => {
        if (event.key === 'Enter') {
          event.preventDefault();
          debounced.cancel();
          send(text);
        }
        props.onKeyDown?.(event);
      }}
    />
  );
}
