import { useMediaQuery } from '@mantine/hooks';

/**
 * True below Mantine's `sm` breakpoint (48em, a phone): where a list of many columns becomes cards,
 * since a table would only scroll sideways. One query for every screen, so they all switch together.
 */
export function useNarrow(): boolean {
  return useMediaQuery('(max-width: 47.99em)') ?? false;
}
