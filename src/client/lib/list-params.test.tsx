import { act, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { type ListParams, useListParams } from './list-params';

const SORTS = ['createdAt', 'rut', 'fullName'] as const;
type Sort = (typeof SORTS)[number];

/** The parameters the screen last rendered with. */
let seen: ListParams<Sort, 'proyecto' | 'desde'> | undefined;

function ListScreen() {
  seen = useListParams({
    sort: { sorts: SORTS, defaultSort: 'createdAt', defaultDirection: 'desc' },
    filters: ['proyecto', 'desde'],
  });
  return <span data-testid="query">{JSON.stringify(seen.query)}</span>;
}

/** Renders a list's parameters at `url` in a data router (as the app does). */
function renderList(url: string) {
  const router = createMemoryRouter([{ path: '/clientes', element: <ListScreen /> }], {
    initialEntries: [url],
  });
  const { unmount } = render(<RouterProvider router={router} />);
  return { list: () => seen!, search: () => router.state.location.search, unmount };
}

describe('useListParams', () => {
  it('reads page, size, order and filters from the address, with the defaults for what it lacks or refuses', () => {
    const { list, unmount } = renderList(
      '/clientes?page=3&porPagina=50&orden=rut&dir=asc&proyecto=p1&otro=x',
    );
    expect(list().query).toEqual({ page: 3, pageSize: 50, sort: 'rut', direction: 'asc' });
    expect(list().filters).toEqual({ proyecto: 'p1' });
    expect(list().activeFilterCount).toBe(1);
    unmount();

    const defaults = renderList('/clientes?porPagina=37&orden=email&dir=up');
    expect(defaults.list().query).toEqual({ page: 1, pageSize: 25, sort: 'createdAt', direction: 'desc' });
  });

  it('keeps both of two changes made before the address catches up, and goes back to page 1', async () => {
    const { list, search } = renderList('/clientes?page=4');
    await act(async () => {
      list().setFilter('proyecto', 'p1');
      list().setFilter('desde', '2026-01-01');
    });
    expect(new URLSearchParams(search()).toString()).toBe('proyecto=p1&desde=2026-01-01');
    expect(screen.getByTestId('query').textContent).toContain('"page":1');

    await act(async () => {
      list().setSort('fullName', 'asc');
      list().setPageSize(10);
    });
    expect(new URLSearchParams(search()).toString()).toBe(
      'proyecto=p1&desde=2026-01-01&orden=fullName&dir=asc&porPagina=10',
    );

    // The defaults leave the address; clearing the filters keeps the order.
    await act(async () => {
      list().setSort('createdAt', 'desc');
      list().setPageSize(25);
      list().clearFilters();
    });
    expect(search()).toBe('');
  });
});
