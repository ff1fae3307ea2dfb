import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorCatalog } from '../../../shared/errors';
import { santiagoDateOf } from '../../../shared/format';
import { DATA_REQUEST_MESSAGES } from '../../../shared/schemas/data-requests';
import { RegisterRequestDialog } from './register-request-dialog';

afterEach(() => vi.unstubAllGlobals());

const REQUEST_ID = '00000000-0000-4000-8000-0000000000e1';

function stubServer(answer: { status: number; body: unknown }) {
  const posts: { url: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      if (init.method === 'POST') posts.push({ url, body: JSON.parse(String(init.body)) });
      return { ok: answer.status < 400, status: answer.status, json: async () => answer.body };
    }),
  );
  return posts;
}

function renderDialog() {
  const onRegistered = vi.fn();
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <MantineProvider>
      <QueryClientProvider client={queryClient}>
        <RegisterRequestDialog opened onClose={vi.fn()} onRegistered={onRegistered} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { dialog: within(screen.getByRole('dialog')), onRegistered };
}

async function chooseKind(dialog: ReturnType<typeof within>, label: string) {
  fireEvent.click(dialog.getByRole('combobox', { name: /Tipo de solicitud/ }));
  fireEvent.click(await screen.findByRole('option', { name: label, hidden: true }));
}

const CREATED = {
  status: 201,
  body: { request: { id: REQUEST_ID, kind: 'suppression', holder: null, status: 'answered' } },
};

describe('Registrar solicitud', () => {
  it('checks the fields with the API’s messages before sending anything', async () => {
    const posts = stubServer(CREATED);
    const { dialog } = renderDialog();
    fireEvent.change(dialog.getByLabelText(/Fecha de recepción/), { target: { value: '' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Registrar' }));
    expect(await dialog.findByText(DATA_REQUEST_MESSAGES.kind)).toBeTruthy();
    expect(dialog.getByText(DATA_REQUEST_MESSAGES.rutRequired)).toBeTruthy();
    expect(posts).toHaveLength(0);
  });

  it('sends the kind, the RUT, the day received (today in Santiago unless changed) and the detail', async () => {
    const posts = stubServer(CREATED);
    const { dialog, onRegistered } = renderDialog();
    const received = dialog.getByLabelText(/Fecha de recepción/) as HTMLInputElement;
    const today = santiagoDateOf(new Date());
    expect(received.value).toBe(`${today.slice(8, 10)}/${today.slice(5, 7)}/${today.slice(0, 4)}`);

    await chooseKind(dialog, 'Supresión');
    fireEvent.change(dialog.getByLabelText(/RUT del titular/), { target: { value: '12.345.678-5' } });
    fireEvent.change(dialog.getByLabelText(/Detalle/), { target: { value: 'Llegó por correo el lunes' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Registrar' }));

    await waitFor(() => expect(onRegistered).toHaveBeenCalled());
    expect(posts).toEqual([
      {
        url: '/api/data-requests',
        body: {
          kind: 'suppression',
          holderRut: '12.345.678-5',
          receivedDate: today,
          details: 'Llegó por correo el lunes',
        },
      },
    ]);
    expect(onRegistered.mock.calls[0]![0]).toMatchObject({ id: REQUEST_ID, status: 'answered' });
  });

  it('sends no detail when none was written, and puts the server’s refusal on its field', async () => {
    const message = errorCatalog.DATA_REQUEST_RECEIVED_IN_FUTURE.message;
    const posts = stubServer({
      status: 400,
      body: {
        error: { code: 'DATA_REQUEST_RECEIVED_IN_FUTURE', message, fields: { receivedDate: message } },
      },
    });
    const { dialog, onRegistered } = renderDialog();
    await chooseKind(dialog, 'Acceso');
    fireEvent.change(dialog.getByLabelText(/RUT del titular/), { target: { value: '12345678-5' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Registrar' }));

    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]!.body).toMatchObject({ kind: 'access', holderRut: '12345678-5', details: null });
    const field = dialog.getByLabelText(/Fecha de recepción/);
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    expect(dialog.getAllByText(message).length).toBeGreaterThanOrEqual(2);
    expect(onRegistered).not.toHaveBeenCalled();
  });
});
