import { DEFAULT_THEME, mergeMantineTheme } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { contrastRatio, cssVariablesResolver, readableOn, theme } from './theme';

const light = cssVariablesResolver(mergeMantineTheme(DEFAULT_THEME, theme)).light;
const { colors, white } = DEFAULT_THEME;
const PALETTES = Object.keys(colors).filter((name) => name !== 'dark' && name !== 'gray');
const AA = 4.5;

describe('theme contrast (WCAG AA)', () => {
  it('measures contrast as WCAG does', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    // The figures: the dimmed grey and the primary blue of Mantine's defaults on white.
    expect(contrastRatio('#868e96', white)).toBeCloseTo(3.32, 1);
    expect(contrastRatio('#228be6', white)).toBeCloseTo(3.55, 1);
  });

  it('darkens a colour only as far as it must, keeping it when it already reads', () => {
    expect(readableOn('#000000', [white])).toBe('#000000');
    const darker = readableOn('#868e96', [white]);
    expect(contrastRatio(darker, white)).toBeGreaterThanOrEqual(AA);
    expect(contrastRatio(darker, white)).toBeLessThan(5.5);
  });

  it('has dimmed text, placeholders, links and errors readable on white and on light greys', () => {
    for (const name of ['dimmed', 'placeholder', 'anchor', 'error'])
      for (const background of [white, colors.gray[0], colors.gray[1]])
        expect(contrastRatio(light[`--mantine-color-${name}`]!, background), name).toBeGreaterThanOrEqual(AA);
  });

  it.each(PALETTES)(
    '%s: white on filled, text and outline on the page and its own tint, light-variant text',
    (name) => {
      const shades = colors[name]!;
      const get = (suffix: string) => light[`--mantine-color-${name}-${suffix}`]!;
      expect(contrastRatio(white, get('filled'))).toBeGreaterThanOrEqual(AA);
      for (const background of [white, colors.gray[0], colors.gray[1], shades[0]]) {
        expect(contrastRatio(get('text'), background)).toBeGreaterThanOrEqual(AA);
        expect(contrastRatio(get('outline'), background)).toBeGreaterThanOrEqual(AA);
      }
      expect(contrastRatio(get('light-color'), shades[1])).toBeGreaterThanOrEqual(AA);
      expect(contrastRatio(get('light-color'), shades[2])).toBeGreaterThanOrEqual(AA);
    },
  );

  it('fills buttons with the primary blue at shade 8, the hue kept', () => {
    expect(light['--mantine-color-blue-filled']).toBe(colors.blue[8]);
  });
});
