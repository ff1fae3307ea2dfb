import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/render';
import { StatusDot } from './status-dot';

describe('StatusDot', () => {
  it('says its words to screen readers and on hover, green for yes and the same grey for every no', () => {
    renderWithProviders(
      <>
        <StatusDot isOn label="Vendedor" />
        <StatusDot isOn={false} label="No es vendedor" />
        <StatusDot isOn={false} label="El KAM no recibe comisión" />
      </>,
    );
    const yes = screen.getByRole('img', { name: 'Vendedor' });
    expect(yes.getAttribute('title')).toBe('Vendedor');
    expect(yes.style.background).toBe('var(--mantine-color-green-6)');
    const noes = [
      screen.getByRole('img', { name: 'No es vendedor' }),
      screen.getByRole('img', { name: 'El KAM no recibe comisión' }),
    ];
    expect(noes.map((dot) => dot.style.background)).toEqual([
      'var(--mantine-color-gray-4)',
      'var(--mantine-color-gray-4)',
    ]);
  });
});
