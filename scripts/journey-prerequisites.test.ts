import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ensureJourneyPrerequisites, missingForJourneys } from './journey-prerequisites.mjs';

describe('the journeys’ prerequisites', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('without Chromium nor pdftoppm, and nothing it may install, give one line naming the command', () => {
    vi.stubEnv('CHROMIUM_PATH', '/nonexistent/chromium');
    vi.stubEnv('PATH', '/nonexistent');
    expect(missingForJourneys()).toEqual(['chromium', 'poppler-utils']);
    const line = ensureJourneyPrerequisites('/dev/null', { mayInstall: false });
    expect(line).toMatch(
      /^Journeys not run: chromium and poppler-utils missing; run: (sudo )?apt-get install -y chromium chromium-headless-shell poppler-utils$/,
    );
  });

  it('with the browser the configuration names and pdftoppm on the PATH, ask for nothing', () => {
    const bin = mkdtempSync(join(tmpdir(), 'inmoflujo-bin-'));
    try {
      writeFileSync(join(bin, 'pdftoppm'), '#!/bin/sh\n', { mode: 0o755 });
      vi.stubEnv('CHROMIUM_PATH', process.execPath);
      vi.stubEnv('PATH', `/nonexistent:${bin}`);
      expect(missingForJourneys()).toEqual([]);
      expect(ensureJourneyPrerequisites('/dev/null', { mayInstall: false })).toBeNull();
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });
});
