export const HEADLESS_SHELL: string;
export const CHROMIUM: string;
/** The browser the journeys drive: CHROMIUM_PATH, else Debian's headless shell, else chromium. */
export function chromiumExecutable(): string;
/** What the journeys miss, by Debian package. */
export function missingForJourneys(): string[];
/** Installs what is missing when root with apt-get; null when all is there, else the line to print. */
export function ensureJourneyPrerequisites(
  logPath?: string,
  options?: { mayInstall?: boolean },
): string | null;
