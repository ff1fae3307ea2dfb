import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { UserOption } from '../../../shared/schemas/users';
import { renderWithProviders } from '../../test/render';
import { highlightMentions, mentionCandidates, mentionQueryAt } from './comments-dialog';
import { readMonth } from './month-input';

const user = (firstName: string, lastName: string): UserOption => ({
  id: `${firstName}-${lastName}`,
  firstName,
  lastName,
  position: 'Analista',
  userType: 'KAM',
  avatarUrl: null,
});
const users = [user('Karla', 'Mendoza'), user('Karina', 'Ñúñez'), user('Óscar', 'Kast')];

describe('mentions in comments', () => {
  it('finds the @-query being typed before the caret, up to two words', () => {
    expect(mentionQueryAt('Hola @ka', 8)).toEqual({ start: 5, query: 'ka' });
    expect(mentionQueryAt('@', 1)).toEqual({ start: 0, query: '' });
    expect(mentionQueryAt('Hola @karla me', 14)).toEqual({ start: 5, query: 'karla me' });
    // An e-mail address or a finished mention of three words is no query.
    expect(mentionQueryAt('correo ana@x.cl', 15)).toBeNull();
    expect(mentionQueryAt('Hola @Karla Mendoza ya', 22)).toBeNull();
    expect(mentionQueryAt('Hola', 4)).toBeNull();
  });

  it('offers users whose name words start with every word typed, accents and case ignored', () => {
    expect(mentionCandidates(users, 'ka').map((u) => u.firstName)).toEqual(['Karla', 'Karina', 'Óscar']);
    expect(mentionCandidates(users, 'kar nu').map((u) => u.firstName)).toEqual(['Karina']);
    expect(mentionCandidates(users, 'osc').map((u) => u.firstName)).toEqual(['Óscar']);
    expect(mentionCandidates(users, '')).toHaveLength(3);
  });

  it('highlights the users a comment mentions, and nothing else', () => {
    renderWithProviders(
      <p>
        {highlightMentions('Ver con @Karla Mendoza y @nadie', [{ firstName: 'Karla', lastName: 'Mendoza' }])}
      </p>,
    );
    const marked = document.querySelectorAll('[data-mention]');
    expect([...marked].map((node) => node.textContent)).toEqual(['@Karla Mendoza']);
    expect(screen.getByText(/y @nadie/)).toBeTruthy();
  });
});

describe('the month input', () => {
  it("reads 'mes de AAAA' or AAAA-MM as the first day of the month; empty is none", () => {
    expect(readMonth('marzo de 2027')).toBe('2027-03-01');
    expect(readMonth('Septiembre de 2026')).toBe('2026-09-01');
    expect(readMonth('2027-03')).toBe('2027-03-01');
    expect(readMonth('  ')).toBeNull();
    expect(readMonth('marzo 2027')).toBeUndefined();
    expect(readMonth('2027-13')).toBeUndefined();
  });
});
