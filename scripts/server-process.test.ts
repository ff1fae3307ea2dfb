import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_OPTIONS } from './server-process';

describe('the production server’s Node options', () => {
  it('are the same for `npm start`, the measuring scripts and the journeys’ server', () => {
    const { scripts } = JSON.parse(readFileSync('package.json', 'utf8')) as {
      scripts: Record<string, string>;
    };
    const playwrightConfig = readFileSync('playwright.config.ts', 'utf8');
    const options = SERVER_NODE_OPTIONS.join(' ');
    expect(options).toContain('--max-old-space-size=');
    expect(scripts.start).toBe(`node ${options} scripts/start.mjs`);
    expect(playwrightConfig).toContain(`node ${options} scripts/e2e-server.mjs`);
  });
});
