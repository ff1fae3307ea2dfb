/**
 * Which backups to keep (decision 0031), on the Santiago calendar: the newest backup of each of the
 * last `daily` days that have one, of each of the last `weekly` ISO weeks (Monday first), of each of
 * the last `monthly` months — restic's and borg's "keep" rules. The newest backup is always kept, and
 * so is every backup taken since the newest nightly one (issue 57: a second manual backup on the same
 * day deleted the first without a word; a manual backup now stays at least until the next night's).
 * Pure: the caller lists the files and deletes what this returns.
 */
import { santiagoDateOf } from '../../../shared/format';

export interface RetentionPolicy {
  daily: number;
  weekly: number;
  monthly: number;
}

export interface Dated {
  name: string;
  createdAt: string;
  kind?: string;
}

/** The Monday of a 'YYYY-MM-DD' date's ISO week, as 'YYYY-MM-DD'. */
function weekOf(date: string): string {
  const day = new Date(`${date}T12:00:00Z`);
  const monday = new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * 86_400_000);
  return monday.toISOString().slice(0, 10);
}

/** The backups to delete under `policy` (never the newest). */
export function backupsToPrune<T extends Dated>(backups: readonly T[], policy: RetentionPolicy): T[] {
  const newestFirst = [...backups].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  const keep = new Set<string>();
  const rules: [number, (date: string) => string][] = [
    [policy.daily, (date) => date],
    [policy.weekly, weekOf],
    [policy.monthly, (date) => date.slice(0, 7)],
  ];
  for (const [count, bucketOf] of rules) {
    const buckets = new Set<string>();
    for (const backup of newestFirst) {
      if (buckets.size >= count) break;
      const bucket = bucketOf(santiagoDateOf(new Date(backup.createdAt)));
      if (buckets.has(bucket)) continue;
      buckets.add(bucket);
      keep.add(backup.name);
    }
  }
  if (newestFirst[0]) keep.add(newestFirst[0].name);
  const lastNightly = newestFirst.find((backup) => backup.kind === 'nightly');
  for (const backup of newestFirst) {
    if (
      backup.kind !== undefined &&
      backup.kind !== 'nightly' &&
      (!lastNightly || backup.createdAt > lastNightly.createdAt)
    )
      keep.add(backup.name);
  }
  return newestFirst.filter((backup) => !keep.has(backup.name));
}
