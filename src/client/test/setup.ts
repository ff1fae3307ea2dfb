import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// jsdom lacks a few browser APIs Mantine relies on.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      // As in a browser, the empty query matches (mantine-datatable shows a column whose
      // `visibleMediaQuery` is unset by asking for ''); every other query answers "no".
      matches: query === '',
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;
Element.prototype.scrollIntoView ??= () => {};
// Autosizing text areas listen for web fonts loading.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    value: { addEventListener: () => {}, removeEventListener: () => {} },
    configurable: true,
  });
}

// Testing Library cleans up between tests only with Vitest globals; we register it ourselves.
afterEach(() => cleanup());
