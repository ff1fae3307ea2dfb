// Apart from ./index, which loads big.js: the top bar and the global search show names on every
// screen (decision 0005).

/** A person's name as every screen shows it: 'Ana Rojas'. */
export function formatPersonName(person: { firstName: string; lastName: string }): string {
  return `${person.firstName} ${person.lastName}`;
}
