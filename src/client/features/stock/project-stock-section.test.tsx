import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { DiffSummary, UnitDialog } from './project-stock-section';

describe("a project's stock (issue 57)", () => {
  it("'Nueva unidad' marks its three area fields m², not UF", async () => {
    renderWithProviders(<UnitDialog projectId="p1" unit={null} opened onClose={() => {}} />);
    const dialog = await screen.findByRole('dialog', { name: 'Nueva unidad' });
    for (const label of ['m² útiles', 'm² terraza', 'm² totales']) {
      const field = within(dialog).getByLabelText(label);
      const wrapper = field.closest('.mantine-InputWrapper-root') as HTMLElement;
      expect(within(wrapper).getByText('m²')).toBeTruthy();
      expect(within(wrapper).queryByText('UF')).toBeNull();
    }
  });

  it("the price list's review shows prices that go down and new units' prices", () => {
    renderWithProviders(
      <DiffSummary
        diff={{
          changes: [
            { unitId: 'u1', kind: 'apartment', number: '1201', from: '3200.00', to: '3250.00' },
            { unitId: 'u2', kind: 'apartment', number: '1301', from: '3300.00', to: '3000.00' },
          ],
          newlyPriced: [{ unitId: 'u3', kind: 'apartment', number: '1302', to: '3400.00' }],
          unchanged: 1,
          unknown: [],
          repeated: [],
          summary: '2 precios cambian (1 sube, 1 baja), 1 unidad nueva, 1 sin cambio',
        }}
      />,
    );
    const table = screen.getByRole('table', { name: 'Precios que cambian' });
    const rows = within(table)
      .getAllByRole('row')
      .map((row) => row.textContent);
    expect(rows).toEqual([
      'Departamento 1201UF 3.200,00→UF 3.250,00Sube',
      'Departamento 1301UF 3.300,00→UF 3.000,00Baja',
      'Departamento 1302—→UF 3.400,00Nueva',
    ]);
  });
});
