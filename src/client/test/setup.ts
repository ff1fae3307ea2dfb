import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, vi } from 'vitest';
import { setSignedOut } from '../lib/api';
import { connection } from '../lib/connection';

// A screen's first render in a worker also loads its lazy code: on a busy 2-core machine that can
// take more than Testing Library's default second to find what it waits for.
configure({ asyncUtilTimeout: 5_000 });

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

// Testing Library cleans up between tests only with Vitest globals; we register it ourselves. The
// files of a worker share one window (the project runs without isolation, vitest.config.ts): what a
// test stubs or stores is put back after it, so no file sees another's.
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  // A test that signed out leaves the next one signed in, as a new tab would be.
  setSignedOut(false);
  // A test whose requests failed leaves the connection up: left down, the next file's first answer
  // brought it back and the banner reloaded every query (a signed-in screen then asked who is signed
  // in of a stub that did not know, and showed 'Intentando reconectar').
  connection.reportAnswer();
});
afterAll(() => {
  localStorage.clear();
  sessionStorage.clear();
});
