/** Builds client and server when dist/ is missing or older than its sources (see build-if-needed.mjs). */
export function buildIfNeeded(options?: { force?: boolean }): void;
/** True when dist/ holds a whole build newer than every source it is built from. */
export function buildIsFresh(): boolean;
