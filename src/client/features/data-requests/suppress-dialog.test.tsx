import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorCatalog } from '../../../shared/errors';
import { DATA_REQUEST_MESSAGES } from '../../../shared/schemas/data-requests';
import { confirmationProblem, SuppressDialog } from './suppress-dialog';

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
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <MantineProvider>
      <QueryClientProvider client={queryClient}>
        <SuppressDialog opened requestId={REQUEST_ID} holderName="Ana Rojas" onClose={vi.fn()} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return within(screen.getByRole('dialog'));
}

const SUPPRESSED = {
  status: 200,
  body: {
    suppression: {
      clientId: '00000000-0000-4000-8000-0000000000c1',
      blockedValues: 3,
      redactedLogRows: 41,
      redactedComments: 2,
    },
  },
};

describe('Suprimir datos personales', () => {
  it('is confirmed by the word SUPRIMIR alone (the API’s own check)', () => {
    expect(confirmationProblem('SUPRIMIR')).toBeNull();
    expect(confirmationProblem(' suprimir ')).toBeNull();
    for (const wrong of ['', 'SUPRIM', 'SUPRIMIR YA', 'BORRAR', 'CONFIRMAR']) {
      expect(confirmationProblem(wrong)).toBe(DATA_REQUEST_MESSAGES.confirmation);
    }
  });

  it('explains what is erased and what stays, and waits for SUPRIMIR before it can be sent', async () => {
    const posts = stubServer(SUPPRESSED);
    const dialog = renderDialog();
    expect(dialog.getByText('Esta acción es irreversible')).toBeTruthy();
    expect(dialog.getByText(/El registro financiero y legal de sus ventas/)).toBeTruthy();
    expect(dialog.getByText(/el RUT y la cuenta bancaria quedan bloqueados/)).toBeTruthy();

    const submit = dialog.getByRole('button', { name: 'Suprimir datos personales' }) as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    const word = dialog.getByLabelText(/Para confirmar, escriba SUPRIMIR/);
    fireEvent.change(word, { target: { value: 'SUPRIM' } });
    expect(submit.disabled).toBe(true);
    // Enter in the field does not get past the check either.
    fireEvent.submit(word.closest('form')!);
    expect(await dialog.findByText(DATA_REQUEST_MESSAGES.confirmation)).toBeTruthy();
    expect(posts).toHaveLength(0);

    fireEvent.change(word, { target: { value: 'SUPRIMIR' } });
    expect(submit.disabled).toBe(false);
    fireEvent.click(submit);

    expect(await screen.findByText('Datos personales suprimidos')).toBeTruthy();
    expect(posts).toEqual([
      { url: `/api/data-requests/${REQUEST_ID}/suppress`, body: { confirmation: 'SUPRIMIR' } },
    ]);
    const result = within(screen.getByRole('table', { name: 'Resultado de la supresión' }));
    const count = (label: string) => result.getByText(label).closest('tr')?.lastElementChild?.textContent;
    expect(count('Valores bloqueados por un deber legal')).toBe('3');
    expect(count('Registros de auditoría redactados')).toBe('41');
    expect(count('Comentarios reescritos')).toBe('2');
  });

  it('shows the server’s refusal and keeps the dialog for another try', async () => {
    const message = errorCatalog.HOLDER_SALE_IN_PROGRESS.message.replace('{numbers}', '1042');
    stubServer({ status: 409, body: { error: { code: 'HOLDER_SALE_IN_PROGRESS', message } } });
    const dialog = renderDialog();
    fireEvent.change(dialog.getByLabelText(/Para confirmar, escriba SUPRIMIR/), {
      target: { value: 'SUPRIMIR' },
    });
    fireEvent.click(dialog.getByRole('button', { name: 'Suprimir datos personales' }));
    expect(await dialog.findByText(message)).toBeTruthy();
    expect(screen.queryByText('Datos personales suprimidos')).toBeNull();
    expect((dialog.getByLabelText(/Para confirmar, escriba SUPRIMIR/) as HTMLInputElement).value).toBe(
      'SUPRIMIR',
    );
  });
});
