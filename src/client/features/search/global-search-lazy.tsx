// The top bar's search box on every screen. Until the user reaches for it (hover, focus, typing,
// Ctrl/⌘+K) it is a plain input that looks like the real one; then the real search (results panel,
// query, its Mantine inputs) loads and takes its place, with what was typed and the focus. Its code
// stays out of the initial JavaScript (decision 0005).
import { Kbd } from '@mantine/core';
import { useHotkeys, useOs } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { type ComponentType, useRef, useState } from 'react';
import { SEARCH_MAX_LENGTH } from '../../../shared/domain/global-search';
import classes from './global-search-lazy.module.css';

export const SEARCH_PLACEHOLDER = 'Buscar cliente, reserva o depto...';
export const SEARCH_LABEL = 'Búsqueda global';

type SearchComponent = ComponentType<{ initialText?: string; autoFocus?: boolean }>;

let loading: Promise<SearchComponent> | null = null;

/** The real search's module, fetched once; a failed fetch is tried again at the next reach. */
function loadSearch(): Promise<SearchComponent> {
  loading ??= import('./global-search').then(
    (module) => module.GlobalSearch,
    (error) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

export function GlobalSearch() {
  const [Search, setSearch] = useState<{ component: SearchComponent; focused: boolean } | null>(null);
  const [text, setText] = useState('');
  const inputRef = useRef<HTMLInputElement>(null);
  const os = useOs();

  const load = () => {
    loadSearch().then(
      (component) => setSearch({ component, focused: document.activeElement === inputRef.current }),
      (error) => console.error('No se pudo cargar la búsqueda', error),
    );
  };

  useHotkeys(Search ? [] : [['mod+K', () => inputRef.current?.focus()]]);

  if (Search) return <Search.component initialText={text} autoFocus={Search.focused} />;
  return (
    <div className={classes.box}>
      <span className={classes.left} aria-hidden>
        <IconSearch size={16} />
      </span>
      <input
        ref={inputRef}
        className={classes.input}
        value={text}
        onChange={(event) => {
          setText(event.currentTarget.value);
          load();
        }}
        onFocus={load}
        onPointerEnter={load}
        placeholder={SEARCH_PLACEHOLDER}
        aria-label={SEARCH_LABEL}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={false}
        autoComplete="off"
        spellCheck={false}
        maxLength={SEARCH_MAX_LENGTH}
      />
      <span className={classes.right} aria-hidden>
        <Kbd size="xs" visibleFrom="md">
          {os === 'macos' ? '⌘' : 'Ctrl'}+K
        </Kbd>
      </span>
    </div>
  );
}
