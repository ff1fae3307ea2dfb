import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { InboxMention, MentionsResponse } from '../../../shared/schemas/notifications';
import { renderWithProviders } from '../../test/render';
import { MentionsSection } from './mentions-section';

afterEach(() => vi.unstubAllGlobals());

const catalina = { id: '00000000-0000-4000-8000-0000000000c1', firstName: 'Catalina', lastName: 'Núñez' };

function mention(overrides: Partial<InboxMention>): InboxMention {
  return {
    commentId: '00000000-0000-4000-8000-000000000101',
    flowId: '00000000-0000-4000-8000-0000000000f1',
    kind: 'sale',
    isSecondPayment: false,
    taskId: '00000000-0000-4000-8000-0000000000a1',
    taskName: 'COF PENDIENTE FIRMA',
    stageName: 'Reserva',
    reservationId: '00000000-0000-4000-8000-0000000000d1',
    reservationNumber: '4521',
    apartmentNumber: '1203',
    projectName: 'Edificio Los Aromos',
    projectStage: 'Etapa 2',
    author: {
      id: '00000000-0000-4000-8000-0000000000a9',
      firstName: 'Alicia',
      lastName: 'Administradora',
      avatarUrl: null,
    },
    content: '@Catalina Núñez revisa la promesa antes del viernes',
    mentions: [catalina],
    createdAt: '2027-03-12T13:42:00.000Z',
    readAt: null,
    ...overrides,
  };
}

const UNREAD = mention({});
const READ = mention({
  commentId: '00000000-0000-4000-8000-000000000102',
  flowId: '00000000-0000-4000-8000-0000000000f2',
  kind: 'payment',
  taskId: '00000000-0000-4000-8000-0000000000a2',
  taskName: 'Solicitud Liquidación',
  stageName: 'Solicitud Liquidación',
  reservationNumber: '4522',
  author: null,
  content: 'Falta la factura, @Catalina Núñez',
  createdAt: '2027-03-10T12:05:00.000Z',
  readAt: '2027-03-11T14:00:00.000Z',
});

/** The server: the mentions page asked for, the bell's count, and the marks sent. */
function serve(pages: (query: URLSearchParams) => MentionsResponse, unread = 1) {
  const sent: string[] = [];
  const fetchMock = vi.fn(async (url: string, init: RequestInit = {}) => {
    const [path, search] = url.split('?');
    if (init.method === 'POST') {
      sent.push(path!);
      return { ok: true, status: 200, json: async () => ({ marked: 1 }) };
    }
    if (path === '/api/notifications/count') {
      return {
        ok: true,
        status: 200,
        json: async () => ({ count: unread + 2, tasks: 2, mentions: unread, dataRequests: 0 }),
      };
    }
    return { ok: true, status: 200, json: async () => pages(new URLSearchParams(search)) };
  });
  vi.stubGlobal('fetch', fetchMock);
  return { sent, fetchMock };
}

describe('the mentions on /notificaciones', () => {
  it('shows who, where, the text and when; an unread one stands out and leads to the task’s comments', async () => {
    serve(() => ({ rows: [UNREAD, READ], total: 2, totalIsCapped: false }));
    renderWithProviders(<MentionsSection />);
    const section = within(screen.getByRole('region', { name: 'Menciones' }));
    const [unread, read] = await section.findAllByTestId('mention');
    expect(await section.findByText('1 sin leer')).toBeTruthy();

    expect(unread!.getAttribute('data-read')).toBe('false');
    expect(unread!.getAttribute('aria-label')).toBe(
      'Sin leer: Mención de Alicia Administradora en COF PENDIENTE FIRMA',
    );
    const first = within(unread!);
    expect(first.getByText('Nueva')).toBeTruthy();
    expect(first.getByText('12/03/2027 10:42')).toBeTruthy();
    expect(first.getByTestId('mention-where').textContent).toBe(
      'Flujo de venta, etapa Reserva · Reserva\u00a0N°\u00a04521 · Edificio Los Aromos',
    );
    expect(first.getByTestId('mention-content').textContent).toBe(
      '@Catalina Núñez revisa la promesa antes del viernes',
    );
    expect(unread!.querySelector('[data-mention]')?.textContent).toBe('@Catalina Núñez');
    expect(first.getByRole('link', { name: 'Ver comentario' }).getAttribute('href')).toBe(
      `/flujo-reservas/${UNREAD.flowId}?comentarios=${UNREAD.taskId}`,
    );
    expect(first.getByRole('button', { name: 'Marcar como leída' })).toBeTruthy();

    // Read: quiet, says when, no 'Marcar como leída'; a payment flow's link; a deleted author.
    expect(read!.getAttribute('data-read')).toBe('true');
    const second = within(read!);
    expect(second.queryByText('Nueva')).toBeNull();
    expect(second.queryByRole('button', { name: 'Marcar como leída' })).toBeNull();
    expect(second.getByText('Leída el 11/03/2027 11:00')).toBeTruthy();
    expect(second.getByText(/^Un usuario eliminado/)).toBeTruthy();
    expect(second.getByTestId('mention-where').textContent).toContain(
      'Flujo de pago, etapa Solicitud Liquidación',
    );
    expect(second.getByRole('link', { name: 'Ver comentario' }).getAttribute('href')).toBe(
      `/pagos/flujo/${READ.flowId}?comentarios=${READ.taskId}`,
    );
  });

  it('marks one read, all read, or marks it when its link is followed', async () => {
    const { sent } = serve(() => ({ rows: [UNREAD], total: 1, totalIsCapped: false }));
    renderWithProviders(<MentionsSection />);
    const card = within(await screen.findByTestId('mention'));
    fireEvent.click(card.getByRole('button', { name: 'Marcar como leída' }));
    await waitFor(() => expect(sent).toEqual([`/api/notifications/mentions/${UNREAD.commentId}/read`]));
    const all = await screen.findByRole('button', { name: 'Marcar todas como leídas' });
    await waitFor(() => expect((all as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(all);
    await waitFor(() => expect(sent.at(-1)).toBe('/api/notifications/mentions/read-all'));
    fireEvent.click(card.getByRole('link', { name: 'Ver comentario' }));
    await waitFor(() => expect(sent).toHaveLength(3));
    expect(sent[2]).toBe(`/api/notifications/mentions/${UNREAD.commentId}/read`);
  });

  it('pages on the server, filters the unread, and says when there is nothing', async () => {
    const { fetchMock } = serve((query) => {
      if (query.get('status') === 'unread') return { rows: [], total: 0, totalIsCapped: false };
      const page = Number(query.get('page'));
      const row = mention({
        commentId: `00000000-0000-4000-8000-00000000010${page}`,
        content: `Aviso ${page}`,
      });
      return { rows: [row], total: 7, totalIsCapped: false };
    }, 0);
    renderWithProviders(<MentionsSection pageSize={5} />);
    expect(await screen.findByText('Aviso 1')).toBeTruthy();
    expect(screen.getByText('1–5 de 7')).toBeTruthy();
    // Nothing unread: no count, and 'Marcar todas' has nothing to do.
    expect(screen.queryByTestId('mentions-unread')).toBeNull();
    expect(
      (screen.getByRole('button', { name: 'Marcar todas como leídas' }) as HTMLButtonElement).disabled,
    ).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Página 2' }));
    expect(await screen.findByText('Aviso 2')).toBeTruthy();
    expect(screen.getByText('6–7 de 7')).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/notifications/mentions?status=all&page=2&pageSize=5',
      expect.anything(),
    );
    fireEvent.click(screen.getByRole('radio', { name: 'Sin leer' }));
    expect(await screen.findByText('No tiene menciones sin leer.')).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/notifications/mentions?status=unread&page=1&pageSize=5',
      expect.anything(),
    );
  });

  it('says so when nobody has mentioned the user', async () => {
    serve(() => ({ rows: [], total: 0, totalIsCapped: false }), 0);
    renderWithProviders(<MentionsSection />);
    expect(await screen.findByText(/^Aún no tiene menciones/)).toBeTruthy();
  });
});
