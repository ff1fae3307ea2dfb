/**
 * Disponibilidad's answers as JSON text, kept per instance (decision 0032, update of 2026-11-27).
 * An entry is answered only while its stamp — the project's stock version read before the grid was
 * built, its name and stage, the day — is still the one the database gives: the version is bumped
 * by triggers in the transaction of every change to what the grid shows, whichever instance or
 * script writes it (DESIGN §14: invalidated by the database, never by this instance's requests).
 */
interface Entry {
  stamp: string;
  /** The answer as UTF-8 bytes: sent as they are, not encoded again on every request. */
  json: Buffer;
}

/** At most this many answers (~0.9 MB each for a 1,728-unit project): the least recently used go. */
const MAX_ENTRIES = 32;

/** One per app instance (made by the stock routes when the app is built). */
export class GridCache {
  private readonly entries = new Map<string, Entry>();

  /** The kept answer for `key` if it was built under `stamp`. */
  kept(key: string, stamp: string): Buffer | null {
    const entry = this.entries.get(key);
    if (!entry) return null;
    this.entries.delete(key);
    if (entry.stamp !== stamp) return null;
    // Most recently used last (a Map iterates in insertion order).
    this.entries.set(key, entry);
    return entry.json;
  }

  keep(key: string, stamp: string, json: Buffer): void {
    this.entries.delete(key);
    this.entries.set(key, { stamp, json });
    while (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
  }
}
