import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { importRuns } from '../db/schema';
import { IMPORT_BODY_TYPE } from '../features/imports/imports.routes';
import { loginAs, TEST_ORIGIN, useTestApp } from '../test/app';
import { cookieValue } from './door-gate';
import { DEFAULT_HEAVY_LIMITS } from './heavy-jobs';

/** A bound for the waits below (never a timing assertion). */
const WAIT_MS = 20_000;

function bounded<T>(promise: Promise<T>, what: string): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what}: nothing in time`)), WAIT_MS)),
  ]);
}

interface RawConnection {
  socket: Socket;
  /** Everything the server sent until now. */
  received(): string;
  /** Resolves when the server sent something or closed. */
  heard: Promise<void>;
  closed: Promise<void>;
}

function rawConnection(port: number): RawConnection {
  const socket = connect(port, '127.0.0.1');
  let answer = '';
  socket.on('error', () => {});
  const heard = new Promise<void>((resolve) => {
    socket.on('data', (chunk) => {
      answer += chunk;
      resolve();
    });
    socket.on('close', () => resolve());
  });
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  return { socket, received: () => answer, heard, closed };
}

/** An upload whose body never comes: headers, then nothing (held until the timeouts). */
function heldUpload(port: number, cookie: string): RawConnection {
  const connection = rawConnection(port);
  connection.socket.write(
    'POST /api/imports/files?kind=clients&name=clientes.csv HTTP/1.1\r\n' +
      'Host: 127.0.0.1\r\n' +
      `Origin: ${TEST_ORIGIN}\r\n` +
      `Cookie: ${cookie}\r\n` +
      `Content-Type: ${IMPORT_BODY_TYPE}\r\n` +
      'Content-Length: 100000\r\n\r\nRUT;Nombres\r\n',
  );
  return connection;
}

describe('the door before Fastify (issue 52, decision 0062)', () => {
  const ctx = useTestApp({ env: { MAX_CONNECTIONS_PER_ADDRESS: 4 } });

  async function listening(): Promise<number> {
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    const address = ctx.app.server.address();
    if (!address || typeof address === 'string') throw new Error('not listening');
    return address.port;
  }

  it('reads the session cookie alone out of a Cookie header', () => {
    expect(cookieValue('a=1; inmoflujo_session=abc.def; b=2', 'inmoflujo_session')).toBe('abc.def');
    expect(cookieValue('inmoflujo_session="x%2By"', 'inmoflujo_session')).toBe('x+y');
    expect(cookieValue('xinmoflujo_session=no; other=1', 'inmoflujo_session')).toBeUndefined();
    expect(cookieValue(undefined, 'inmoflujo_session')).toBeUndefined();
    expect(cookieValue('inmoflujo_session=%E0%A4%A', 'inmoflujo_session')).toBe('%E0%A4%A');
  });

  it('refuses a session’s upload beyond its limit before Fastify reads anything, writes nothing, and lets another session through', async () => {
    const port = await listening();
    const camila = await loginAs(ctx, { email: 'camila@inmoflujo.test' });
    const uploads = Array.from({ length: DEFAULT_HEAVY_LIMITS.perUser.upload }, () =>
      heldUpload(port, camila.cookie!),
    );
    try {
      // The held uploads reached the limiter of 0050 (their places are taken there too).
      for (let i = 0; i < 200 && ctx.app.heavyJobs.totals().uploads < uploads.length; i++)
        await new Promise((resolve) => setTimeout(resolve, 25));
      expect(ctx.app.heavyJobs.totals().uploads).toBe(uploads.length);

      const extra = heldUpload(port, camila.cookie!);
      await bounded(extra.heard, 'the extra upload');
      const answer = extra.received();
      expect(answer).toMatch(/^HTTP\/1\.1 429 /);
      expect(answer).toMatch(/\r\nretry-after: 5\r\n/i);
      expect(answer).toMatch(/\r\nconnection: close\r\n/i);
      expect(answer).toContain(
        '{"error":{"code":"HEAVY_UPLOAD_BUSY","message":"Ya hay archivos subiéndose desde su cuenta; espere que terminen e intente nuevamente."}}',
      );
      // Refused by the door: Fastify's limiter never saw it.
      expect(ctx.app.doorGate.refused.upload).toBe(1);
      await bounded(extra.closed, 'the refused upload’s connection');
      expect(await ctx.db.select().from(importRuns)).toEqual([]);
    } finally {
      for (const upload of uploads) upload.socket.destroy();
    }
    // Their places are given back once the server sees them go (polled, bounded).
    for (let i = 0; i < 200 && ctx.app.doorGate.countOf('upload', camila.cookie!.split('=')[1]!) > 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 25));
    const csv = 'RUT;Nombres;Apellidos\r\n12.345.678-5;Ana;Rojas\r\n';
    const after = await fetch(`http://127.0.0.1:${port}/api/imports/files?kind=clients&name=clientes.csv`, {
      method: 'POST',
      headers: { cookie: camila.cookie!, origin: TEST_ORIGIN, 'content-type': IMPORT_BODY_TYPE },
      body: csv,
    });
    expect(after.status, await after.clone().text()).toBe(201);
  });

  it('closes a connection beyond the address’s cap at once, and serves again once one is gone', async () => {
    const port = await listening();
    // Four connections of one address, each known to the server (it answered a request on it).
    const held = Array.from({ length: 4 }, () => rawConnection(port));
    for (const connection of held) {
      connection.socket.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      await bounded(connection.heard, 'a held connection');
      expect(connection.received()).toMatch(/^HTTP\/1\.1 200 /);
    }
    const fifth = rawConnection(port);
    fifth.socket.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await bounded(fifth.closed, 'the fifth connection');
    expect(fifth.received()).toBe('');
    expect(ctx.app.doorGate.refused.connection).toBe(1);

    held[0]!.socket.destroy();
    let served = false;
    for (let i = 0; !served && i < 200; i++) {
      served = await fetch(`http://127.0.0.1:${port}/api/health`, { headers: { connection: 'close' } }).then(
        (response) => response.ok,
        () => false,
      );
      if (!served) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(served).toBe(true);
    for (const connection of held) connection.socket.destroy();
  });
});
