/** Builds client and server when dist/ is missing or older than its sources (see build-if-needed.mjs). */
export function buildIfNeeded(options?: { force?: boolean }): void;
