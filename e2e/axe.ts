import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

type Violation = Awaited<ReturnType<AxeBuilder['analyze']>>['violations'][number];

/**
 * axe's serious and critical violations on the page, or within `include` (a CSS selector).
 * Only the violations are read: axe skips building its passes and incomplete results (about a
 * quarter of a check's time on this machine); every rule still runs. axe runs in the page itself
 * ('legacy mode'): by default the builder also opens a blank page per check to merge each frame's
 * results, injecting axe's 0.5 MB a third time — ~1 s of a check's ~1.2 s here, against ~0.2 s for
 * axe's own rules. What legacy mode gives up is reaching into frames of another origin; the screens
 * checked have no frame at all, which the first assertion holds.
 */
export async function severeAxeViolations(page: Page, include?: string): Promise<Violation[]> {
  expect(
    page.frames().map((frame) => frame.url()),
    'a frame of another origin would need the default mode',
  ).toHaveLength(1);
  const builder = new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).setLegacyMode();
  const results = await (include ? builder.include(include) : builder).analyze();
  return results.violations.filter((violation) => ['serious', 'critical'].includes(violation.impact ?? ''));
}
