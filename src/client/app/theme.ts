import { type CSSVariablesResolver, createTheme, DEFAULT_THEME, darken, toRgba } from '@mantine/core';

// Contrast (issue 10, item 12): every text colour the theme hands out meets WCAG AA (4.5:1) on the
// backgrounds it is used on, decided here once so that no component picks a shade by hand. Mantine's
// own choices fall short in the light scheme: the dimmed grey (gray.6, 3.32:1 on white), white on
// blue.6 (3.55:1), the red of errors (red.6, 3.28:1) and the text of light badges in yellow, orange,
// lime, green and teal. Each is kept in its hue and darkened only as far as AA needs.

/** WCAG AA for normal text is 4.5:1; 4.6 leaves a margin for how browsers round colours. */
const AA = 4.6;

type Rgb = [number, number, number];

function rgbOf(color: string): Rgb {
  const { r, g, b } = toRgba(color);
  return [r, g, b];
}

/** WCAG 2 relative luminance. */
function relativeLuminance(rgb: Rgb): number {
  const [r, g, b] = rgb.map((value) => {
    const c = value / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function ratioOf(a: number, b: number): number {
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

/** The WCAG 2 contrast ratio of two colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  return ratioOf(relativeLuminance(rgbOf(a)), relativeLuminance(rgbOf(b)));
}

/**
 * `color` itself when it reaches `ratio` on every background, else the least darkened version of it
 * that does (darkened as Mantine's `darken` does: each channel scaled down, so the hue stays).
 */
export function readableOn(color: string, backgrounds: string[], ratio = AA): string {
  const base = rgbOf(color);
  const behind = backgrounds.map((background) => relativeLuminance(rgbOf(background)));
  for (let step = 0; step < 50; step++) {
    const candidate = base.map((channel) => Math.round(channel * (1 - step * 0.02))) as Rgb;
    const luminance = relativeLuminance(candidate);
    if (behind.every((background) => ratioOf(luminance, background) >= ratio))
      return step === 0
        ? color
        : `#${candidate.map((channel) => channel.toString(16).padStart(2, '0')).join('')}`;
  }
  return '#000000';
}

/** Filled buttons and badges use shade 8 (white on blue.8 is 5.0:1; on blue.6 it was 3.55:1). */
const PRIMARY_SHADE = 8;

export const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: { light: PRIMARY_SHADE, dark: PRIMARY_SHADE },
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontWeight: '700' },
  respectReducedMotion: true,
});

const { colors, white } = DEFAULT_THEME;
/** The lightest greys text sits on: the page, striped and hovered table rows, subtle hovers. */
const PAGE_BACKGROUNDS = [white, colors.gray[0], colors.gray[1]];

/** The light scheme's variables for one palette: text, filled, outline and light variants at AA. */
function paletteVariables(name: string, shades: readonly string[]): Record<string, string> {
  const shade = shades[PRIMARY_SHADE]!;
  const filled = readableOn(shade, [white]);
  // Text of a colour is also read on its own lightest tint (a rescinded reservation's row).
  const text = readableOn(filled, [...PAGE_BACKGROUNDS, shades[0]!]);
  return {
    [`--mantine-color-${name}-filled`]: filled,
    [`--mantine-color-${name}-filled-hover`]: filled === shade ? shades[9]! : darken(filled, 0.1),
    [`--mantine-color-${name}-text`]: text,
    [`--mantine-color-${name}-outline`]: text,
    // Light badges and subtle buttons: shade 9 on shade 1 (and shade 2 when hovered).
    [`--mantine-color-${name}-light-color`]: readableOn(shades[9]!, [shades[1]!, shades[2]!]),
  };
}

function lightSchemeVariables(): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const [name, shades] of Object.entries(colors)) {
    if (name === 'dark' || name === 'gray') continue;
    Object.assign(variables, paletteVariables(name, shades));
  }
  const dimmed = readableOn(colors.gray[6], PAGE_BACKGROUNDS);
  return {
    ...variables,
    '--mantine-color-dimmed': dimmed,
    // Placeholders are read before anything is typed: the dimmed grey, still lighter than the text.
    '--mantine-color-placeholder': dimmed,
    '--mantine-color-anchor': variables['--mantine-color-blue-text']!,
    '--mantine-color-error': variables['--mantine-color-red-text']!,
  };
}

let lightScheme: Record<string, string> | undefined;

/** Given to MantineProvider beside the theme. The dark scheme is not used and keeps Mantine's values. */
export const cssVariablesResolver: CSSVariablesResolver = () => {
  // Computed once (a couple of milliseconds), not at every render of the provider.
  lightScheme ??= lightSchemeVariables();
  return { variables: {}, light: lightScheme, dark: {} };
};
