import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { FlowHeaderDescription } from './flow-header';

// Issue 57: the sale flow screen marks a client whose holder blocked their data, from the server's answer.

const wrapper = ({ children }: { children: ReactNode }) => <MantineProvider>{children}</MantineProvider>;

function renderHeader(restriction: 'opposition' | 'blocking' | null) {
  render(
    <FlowHeaderDescription
      client={{ firstName: 'Ana', lastName: 'Rojas', restriction }}
      projectName="Edificio Alameda"
      apartmentNumber="1204"
      isRescinded={false}
    />,
    { wrapper },
  );
}

describe('the flow header’s client', () => {
  it('marks a blocked client beside the name', () => {
    renderHeader('blocking');
    const mark = screen.getByTestId('client-restriction');
    expect(mark.textContent).toBe('Bloqueado');
    expect(mark.getAttribute('title')).toBe('Datos bloqueados');
    expect(screen.getByText('Ana Rojas · Edificio Alameda · Depto. 1204')).toBeTruthy();
  });

  it('marks an opposition as such', () => {
    renderHeader('opposition');
    expect(screen.getByTestId('client-restriction').getAttribute('title')).toBe('Oposición al tratamiento');
  });

  it('shows no mark for a client without restriction', () => {
    renderHeader(null);
    expect(screen.queryByTestId('client-restriction')).toBeNull();
  });
});
