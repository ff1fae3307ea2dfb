/**
 * What was typed and not yet sent, kept for the tab's session so that closing a popup loses nothing
 * (issue 28 §5: a comment typed in 'Comentarios' survived neither Escape nor the close button). In
 * memory only, never written to the browser's storage, and forgotten at every sign-in and sign-out:
 * a draft is never shown to the next user of the tab.
 */
const drafts = new Map<string, unknown>();

/** The draft kept under `key`, if any. */
export function draftOf<T>(key: string): T | undefined {
  return drafts.get(key) as T | undefined;
}

/** Keeps `value` under `key` (replacing what was there). */
export function keepDraft<T>(key: string, value: T): void {
  drafts.set(key, value);
}

/** Forgets one draft (sent, or emptied by the user). */
export function forgetDraft(key: string): void {
  drafts.delete(key);
}

/** Forgets every draft (sign-in, sign-out). */
export function forgetAllDrafts(): void {
  drafts.clear();
}
