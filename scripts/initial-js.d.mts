export const INITIAL_JS_BUDGET_KB: number;
/** The gzip size of the JavaScript the built index.html loads at once (see initial-js.mjs). */
export function initialJavaScript(clientDir?: string): {
  files: { file: string; bytes: number; gzipBytes: number }[];
  gzipBytes: number;
};
/** Prints the size against the budget; false when over it. */
export function checkInitialJavaScript(clientDir?: string): boolean;
