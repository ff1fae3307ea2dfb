import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DocumentList } from '../../../shared/schemas/documents';
import { renderWithProviders } from '../../test/render';
import DocumentsPage from './documents-page';

afterEach(() => vi.unstubAllGlobals());

const RESERVATION = '00000000-0000-4000-8000-0000000000aa';

function list(overrides: Partial<DocumentList> = {}): DocumentList {
  return {
    reservation: {
      id: RESERVATION,
      reservationNumber: 'R-101',
      clientName: 'Rosa Pino',
      projectName: 'Edificio Los Aromos',
      apartmentNumber: '101',
      hasCommission: false,
      saleFlowId: null,
    },
    documents: [
      {
        id: '00000000-0000-4000-8000-0000000000d1',
        reservationId: RESERVATION,
        typeId: 't1',
        typeName: 'Promesa firmada',
        typeIsRestricted: false,
        name: 'promesa.pdf',
        current: {
          number: 2,
          fileName: 'promesa.pdf',
          contentType: 'application/pdf',
          byteSize: 2048,
          isPreviewable: false,
          createdAt: '2026-11-20T15:30:00.000Z',
          createdByName: 'Karla Mendoza',
        },
        createdAt: '2026-11-19T15:30:00.000Z',
        createdByName: 'Karla Mendoza',
        version: 3,
      },
    ],
    types: [
      {
        id: 't1',
        name: 'Promesa firmada',
        isRestricted: false,
        sortOrder: 3,
        requiredBy: [],
        documentCount: 1,
        version: 1,
      },
    ],
    missing: [{ typeName: 'Escritura', taskName: 'PENDIENTE FIRMA ESCRITURA' }],
    canDelete: false,
    ...overrides,
  };
}

function renderPage(answer: DocumentList) {
  const fetchMock = vi.fn(async () => ({ ok: true, status: 200, json: async () => answer }));
  vi.stubGlobal('fetch', fetchMock);
  renderWithProviders(
    <Routes>
      <Route path="/reservas/:id/documentos" element={<DocumentsPage />} />
    </Routes>,
    { route: `/reservas/${RESERVATION}/documentos` },
  );
  return fetchMock;
}

describe('DocumentsPage', () => {
  it('lists the documents with their version, who, when and size, and the required ones missing', async () => {
    renderPage(list());
    const row = await screen.findByRole('row', { name: /promesa\.pdf/ });
    expect(within(row).getByText('Karla Mendoza')).toBeTruthy();
    expect(within(row).getByText('2,0 KB')).toBeTruthy();
    expect(within(row).getByText('20/11/2026 12:30')).toBeTruthy();
    expect(screen.getByText('Escritura (lo requiere la tarea PENDIENTE FIRMA ESCRITURA)')).toBeTruthy();
    // Not previewable (a damaged or encrypted PDF): only the download.
    expect(
      (within(row).getByRole('button', { name: 'Vista previa de promesa.pdf' }) as HTMLButtonElement)
        .disabled,
    ).toBe(true);
    expect(within(row).getByRole('link', { name: 'Descargar promesa.pdf' }).getAttribute('href')).toBe(
      `/api/reservations/${RESERVATION}/documents/00000000-0000-4000-8000-0000000000d1/download`,
    );
    // No commission: no statement; the receipt opens in a tab of its own.
    expect(screen.queryByRole('link', { name: 'Liquidación de Comisión' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Comprobante de Reserva' }).getAttribute('target')).toBe(
      '_blank',
    );
  });

  it('offers Eliminar only to those the server says may delete', async () => {
    renderPage(list({ canDelete: false }));
    fireEvent.click(await screen.findByRole('button', { name: 'Más acciones de promesa.pdf' }));
    await screen.findByRole('menuitem', { name: 'Renombrar' });
    expect(screen.queryByRole('menuitem', { name: 'Eliminar' })).toBeNull();
  });

  it('asks for the type and the file before sending anything', async () => {
    const fetchMock = renderPage(list({ canDelete: true }));
    fireEvent.click(await screen.findByRole('button', { name: 'Subir documento' }));
    const dialog = await screen.findByRole('dialog', { name: 'Subir documento' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Subir' }));
    await within(dialog).findByText('Seleccione el tipo de documento');
    // Only the list was asked for: nothing was uploaded.
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
  });
});
