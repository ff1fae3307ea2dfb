import { describe, expect, it, vi } from 'vitest';
import { openLiveEvents } from './live-events';

/** An EventSource the test drives: the server's events are dispatched by hand. */
class FakeEventSource extends EventTarget {
  closed = false;
  emit(type: string) {
    this.dispatchEvent(new MessageEvent(type, { data: '{}' }));
  }
  close() {
    this.closed = true;
  }
}

function open() {
  const source = new FakeEventSource();
  const handlers = {
    flowChanged: vi.fn(),
    inboxChanged: vi.fn(),
    stockChanged: vi.fn(),
    permissionsChanged: vi.fn(),
    resync: vi.fn(),
    sessionEnded: vi.fn(),
  };
  const connection = openLiveEvents(
    handlers,
    () => source as unknown as EventSource,
    () => {},
  );
  return { source, handlers, connection };
}

describe('the live stream when the session ends', () => {
  it('asks who is signed in when the session ended elsewhere, not when this tab signed out', () => {
    const elsewhere = open();
    elsewhere.source.emit('ready');
    elsewhere.source.emit('session-ended');
    expect(elsewhere.source.closed).toBe(true);
    expect(elsewhere.handlers.sessionEnded).toHaveBeenCalledTimes(1);

    const signingOut = open();
    signingOut.source.emit('ready');
    signingOut.connection.expectEnd(true);
    signingOut.source.emit('session-ended');
    expect(signingOut.source.closed).toBe(true);
    expect(signingOut.connection.connected()).toBe(false);
    expect(signingOut.handlers.sessionEnded).not.toHaveBeenCalled();

    // A sign-out that failed takes it back: an end that comes later is news again.
    const failed = open();
    failed.connection.expectEnd(true);
    failed.connection.expectEnd(false);
    failed.source.emit('session-ended');
    expect(failed.handlers.sessionEnded).toHaveBeenCalledTimes(1);
  });
});
