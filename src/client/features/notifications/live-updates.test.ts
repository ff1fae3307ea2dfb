import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { LIVE_EVENTS_URL, openLiveEvents } from '../../lib/live-events';
import { sessionQueryKey } from '../../lib/session';
import { approvalKeys } from '../approvals/keys';
import { stockKeys } from '../stock/keys';
import { liveUpdateHandlers, notificationKeys } from './api';

/** An EventSource the test drives: the server's events are dispatched by hand. */
class FakeEventSource extends EventTarget {
  closed = false;
  constructor(readonly url: string) {
    super();
  }
  emit(type: string, data = '{}') {
    this.dispatchEvent(new MessageEvent(type, { data }));
  }
  close() {
    this.closed = true;
  }
}

function open() {
  let source!: FakeEventSource;
  const handlers = {
    flowChanged: vi.fn(),
    inboxChanged: vi.fn(),
    stockChanged: vi.fn(),
    permissionsChanged: vi.fn(),
    resync: vi.fn(),
    sessionEnded: vi.fn(),
  };
  const lost = vi.fn();
  const connection = openLiveEvents(
    handlers,
    (url) => {
      source = new FakeEventSource(url);
      return source as unknown as EventSource;
    },
    lost,
  );
  return { source, handlers, connection, lost };
}

describe('live events (one stream per tab)', () => {
  it('asks the connection monitor once when a stream that was up breaks, not when it never came up', () => {
    const never = open();
    never.source.emit('error');
    expect(never.lost).not.toHaveBeenCalled();

    const { source, lost } = open();
    source.emit('ready');
    source.emit('error');
    // EventSource retries by itself: each failed retry is another error, but the loss is one.
    source.emit('error');
    source.emit('error');
    expect(lost).toHaveBeenCalledTimes(1);
    source.emit('ready');
    source.emit('error');
    expect(lost).toHaveBeenCalledTimes(2);
  });

  it('is connected from the server’s first event until an error, and resyncs when it comes back', () => {
    const { source, handlers, connection } = open();
    expect(source.url).toBe(LIVE_EVENTS_URL);
    const changes = vi.fn();
    connection.subscribe(changes);
    expect(connection.connected()).toBe(false);
    source.emit('ready');
    expect(connection.connected()).toBe(true);
    expect(handlers.resync).not.toHaveBeenCalled();
    // Dropped: the timer takes over; back: what happened meanwhile is fetched again.
    source.dispatchEvent(new Event('error'));
    expect(connection.connected()).toBe(false);
    source.emit('ready');
    expect(connection.connected()).toBe(true);
    expect(handlers.resync).toHaveBeenCalledTimes(1);
    expect(changes).toHaveBeenCalledTimes(3);
    connection.close();
    expect(source.closed).toBe(true);
    expect(connection.connected()).toBe(false);
  });

  it('hands on flow changes, the user’s own inbox changes and the server’s resync', () => {
    const { source, handlers } = open();
    source.emit('flow-changed', JSON.stringify({ flowId: 'f1', reservationId: 'r1', mine: true }));
    expect(handlers.flowChanged).toHaveBeenCalledWith({ flowId: 'f1', reservationId: 'r1', mine: true });
    source.emit('inbox-changed');
    expect(handlers.inboxChanged).toHaveBeenCalledTimes(1);
    source.emit('resync');
    expect(handlers.resync).toHaveBeenCalledTimes(1);
    source.emit('stock-changed', JSON.stringify({ projectId: 'p1' }));
    expect(handlers.stockChanged).toHaveBeenCalledTimes(1);
  });

  it('closes for good when the server says the session ended, and hands it on', () => {
    const { source, handlers, connection } = open();
    source.emit('ready');
    expect(connection.connected()).toBe(true);
    source.emit('session-ended');
    // Closed: EventSource does not reconnect by itself to be refused.
    expect(source.closed).toBe(true);
    expect(connection.connected()).toBe(false);
    expect(handlers.sessionEnded).toHaveBeenCalledTimes(1);
  });

  it('asks for the session again when it ended, so the guard can send the user to sign in', () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData(sessionQueryKey, { id: 'u1' });
    queryClient.setQueryData(notificationKeys.count, 1);
    liveUpdateHandlers(queryClient).sessionEnded();
    expect(queryClient.getQueryState(sessionQueryKey)?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(notificationKeys.count)?.isInvalidated).toBe(false);
  });

  it('refreshes the user’s badge and inboxes for their changes, everyone’s follow-up, the approvals and the flow’s screens for any', async () => {
    const queryClient = new QueryClient();
    const keys = [
      notificationKeys.count,
      notificationKeys.mine,
      notificationKeys.mentions('all', 2),
      notificationKeys.followUp(null),
      ['sale-flows', 'detail', 'f1'],
      ['payment-flows', 'detail', 'f2'],
      ['reservations', 'detail', 'r1'],
      approvalKeys.list({ page: 1, pageSize: 25 }),
      approvalKeys.detail('t7'),
    ];
    const stale = () => keys.map((key) => queryClient.getQueryState(key)?.isInvalidated ?? false);
    const reset = () => {
      for (const key of keys) queryClient.setQueryData(key, 1);
    };
    reset();
    const handlers = liveUpdateHandlers(queryClient);
    handlers.flowChanged({ flowId: 'f1', reservationId: 'r1', mine: false });
    expect(stale()).toEqual([false, false, false, true, true, false, true, true, true]);
    reset();
    // A change of the user's own (a task of theirs, a mention of them): badge, tasks and mentions.
    handlers.flowChanged({ flowId: 'f2', reservationId: 'r9', mine: true });
    expect(stale()).toEqual([true, true, true, true, false, true, false, true, true]);
    reset();
    // Their mentions read in another tab: their badge and inboxes only.
    handlers.inboxChanged();
    expect(stale()).toEqual([true, true, true, true, false, false, false, false, false]);
    reset();
    handlers.resync();
    expect(stale()).toEqual([true, true, true, true, true, true, true, true, true]);
  });

  it('refreshes the stock screens, and nothing else, when a project’s units change', () => {
    const queryClient = new QueryClient();
    const keys = [
      stockKeys.grid('p1', {}),
      stockKeys.picker('p1', 'apartment', ''),
      stockKeys.priceLists('p1'),
      notificationKeys.count,
      approvalKeys.list({ page: 1, pageSize: 25 }),
    ];
    for (const key of keys) queryClient.setQueryData(key, 1);
    liveUpdateHandlers(queryClient).stockChanged();
    expect(keys.map((key) => queryClient.getQueryState(key)?.isInvalidated)).toEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
  });
});
