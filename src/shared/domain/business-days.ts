/**
 * Chilean business days (decision 0035): Monday to Friday, except the holidays of the table
 * (Configuración → Feriados). Calendar days are 'YYYY-MM-DD' strings on the Santiago calendar; no
 * clock, no time zone: pure arithmetic on dates.
 */

const DAY_MS = 86_400_000;

/** The date `days` calendar days after (or before) `date`. */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** 0 Sunday … 6 Saturday. */
function weekday(date: string): number {
  return new Date(`${date}T00:00:00Z`).getUTCDay();
}

export function isBusinessDay(date: string, holidays: ReadonlySet<string>): boolean {
  const day = weekday(date);
  return day !== 0 && day !== 6 && !holidays.has(date);
}

/** The first business day after `date`. */
export function nextBusinessDay(date: string, holidays: ReadonlySet<string>): string {
  let next = addDays(date, 1);
  // A year never holds more than a few days off in a row: the loop ends within days.
  while (!isBusinessDay(next, holidays)) next = addDays(next, 1);
  return next;
}

/**
 * Business days after `from` up to and including `to` (0 when `to` is not after `from`): the digest's
 * count of business days a task is overdue.
 */
export function businessDaysBetween(from: string, to: string, holidays: ReadonlySet<string>): number {
  let count = 0;
  for (let day = addDays(from, 1); day <= to; day = addDays(day, 1)) {
    if (isBusinessDay(day, holidays)) count += 1;
  }
  return count;
}

/**
 * The deadlines a reminder speaks of on a business day `today`: those after today up to the next
 * business day — on a Friday, Saturday's, Sunday's and Monday's (the last business day before them).
 */
export function reminderWindow(
  today: string,
  holidays: ReadonlySet<string>,
): { after: string; through: string } {
  return { after: today, through: nextBusinessDay(today, holidays) };
}

/**
 * The earliest day of "the last `days` business days" up to `today` (issue 53): the `days`-th business
 * day before today (today itself when `days` is 0). A batch the bank paid on any day from it to today
 * may be dated so by the payments team.
 */
export function businessDaysBack(today: string, days: number, holidays: ReadonlySet<string>): string {
  let day = today;
  // Each step finds the previous business day: a few calendar days at most.
  for (let left = days; left > 0; left -= 1) {
    day = addDays(day, -1);
    while (!isBusinessDay(day, holidays)) day = addDays(day, -1);
  }
  return day;
}
