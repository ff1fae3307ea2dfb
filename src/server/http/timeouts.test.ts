import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { IMPORT_BODY_TYPE } from '../features/imports/imports.routes';
import { loginAs, TEST_ORIGIN, useTestApp } from '../test/app';
import { DEFAULT_HEAVY_LIMITS } from './heavy-jobs';

/** A bound for the waits below (never a timing assertion). */
const WAIT_MS = 20_000;

interface Trickle {
  socket: Socket;
  /** What the server answered, once the connection closed. */
  closed: Promise<string>;
  /** Bytes of the body sent so far. */
  sent(): number;
  stop(): void;
}

/**
 * An upload of a 100 KB file by a real socket that sends one byte of its body every `everyMs`:
 * never idle, never done.
 */
function trickleUpload(port: number, cookie: string, everyMs: number): Trickle {
  const socket = connect(port, '127.0.0.1');
  let answer = '';
  let sent = 0;
  socket.on('data', (chunk) => {
    answer += chunk;
  });
  socket.on('error', () => {});
  const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(answer)));
  socket.write(
    'POST /api/imports/files?kind=clients&name=clientes.csv HTTP/1.1\r\n' +
      'Host: 127.0.0.1\r\n' +
      `Origin: ${TEST_ORIGIN}\r\n` +
      `Cookie: ${cookie}\r\n` +
      `Content-Type: ${IMPORT_BODY_TYPE}\r\n` +
      'Content-Length: 100000\r\n\r\n',
  );
  const timer = setInterval(() => {
    if (socket.destroyed) return clearInterval(timer);
    socket.write('a');
    sent++;
  }, everyMs);
  socket.on('close', () => clearInterval(timer));
  return {
    socket,
    closed,
    sent: () => sent,
    stop: () => {
      clearInterval(timer);
      socket.destroy();
    },
  };
}

function bounded<T>(promise: Promise<T>, what: string): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what}: nothing in time`)), WAIT_MS)),
  ]);
}

describe('uploads that trickle are cut off (issue 52, decision 0050)', () => {
  const ctx = useTestApp({ env: { REQUEST_TIMEOUT_SECONDS: 2, IDLE_TIMEOUT_SECONDS: 1 } });

  async function listening(): Promise<number> {
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    const address = ctx.app.server.address();
    if (!address || typeof address === 'string') throw new Error('not listening');
    return address.port;
  }

  it('cuts an upload that trickles one byte at a time at the request timeout, refuses the user’s extra ones meanwhile, and gives their places back', async () => {
    const port = await listening();
    const camila = await loginAs(ctx, { email: 'camila@inmoflujo.test' });
    const uploads = Array.from({ length: DEFAULT_HEAVY_LIMITS.perUser.upload }, () =>
      trickleUpload(port, camila.cookie!, 100),
    );
    try {
      // Each holds one of her places once its headers are read.
      for (let i = 0; i < 200 && ctx.app.heavyJobs.countOf(camila.user!.id, 'upload') < uploads.length; i++)
        await new Promise((resolve) => setTimeout(resolve, 25));
      expect(ctx.app.heavyJobs.countOf(camila.user!.id, 'upload')).toBe(uploads.length);
      const extra = await fetch(`http://127.0.0.1:${port}/api/imports/files?kind=clients&name=otro.csv`, {
        method: 'POST',
        headers: { origin: TEST_ORIGIN, cookie: camila.cookie!, 'content-type': IMPORT_BODY_TYPE },
        body: 'RUT;Nombre\r\n',
      });
      expect(extra.status).toBe(429);
      expect(extra.headers.get('retry-after')).toBe('5');
      expect((await extra.json()).error.code).toBe('HEAVY_UPLOAD_BUSY');

      for (const upload of uploads) {
        const answer = await bounded(upload.closed, 'a trickling upload');
        expect(answer).toMatch(/^HTTP\/1\.1 408 /);
        expect(upload.sent()).toBeLessThan(100_000);
      }
      for (let i = 0; i < 200 && ctx.app.heavyJobs.totals().uploads > 0; i++)
        await new Promise((resolve) => setTimeout(resolve, 25));
      expect(ctx.app.heavyJobs.totals()).toEqual({ downloads: 0, uploads: 0 });
      expect((await fetch(`http://127.0.0.1:${port}/api/health`)).status).toBe(200);
    } finally {
      for (const upload of uploads) upload.stop();
    }
  });

  it('closes a connection that goes quiet in the middle of its body', async () => {
    const port = await listening();
    const camila = await loginAs(ctx, { email: 'camila@inmoflujo.test' });
    const quiet = trickleUpload(port, camila.cookie!, 60_000);
    try {
      quiet.socket.write('RUT;Nombre\r\n');
      const answer = await bounded(quiet.closed, 'a quiet upload');
      // Closed without an answer (the idle timeout), or with the request timeout's 408.
      expect(answer === '' || answer.startsWith('HTTP/1.1 408 ')).toBe(true);
      expect(quiet.sent()).toBe(0);
      for (let i = 0; i < 200 && ctx.app.heavyJobs.totals().uploads > 0; i++)
        await new Promise((resolve) => setTimeout(resolve, 25));
      expect(ctx.app.heavyJobs.totals()).toEqual({ downloads: 0, uploads: 0 });
    } finally {
      quiet.stop();
    }
  });
});

describe('a heavy download that works longer than the idle timeout before its first byte (decision 0062)', () => {
  const WORK_MS = 2_500;
  const ctx = useTestApp({
    env: { REQUEST_TIMEOUT_SECONDS: 2, IDLE_TIMEOUT_SECONDS: 1 },
    // The server's work before the answer (a backup that scrubs first, at scale), not a client gone quiet.
    plantRoutes: async (api) => {
      api.get('/planted-slow-export', { config: { access: 'staff', heavy: 'export' } }, async () => {
        await new Promise((resolve) => setTimeout(resolve, WORK_MS));
        return { ok: true };
      });
    },
  });

  it('is answered, and its socket gets the idle timeout back afterwards', async () => {
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    const address = ctx.app.server.address();
    if (!address || typeof address === 'string') throw new Error('not listening');
    const camila = await loginAs(ctx, { email: 'camila@inmoflujo.test' });
    const response = await bounded(
      fetch(`http://127.0.0.1:${address.port}/api/planted-slow-export`, {
        headers: { cookie: camila.cookie!, origin: TEST_ORIGIN },
      }),
      'a slow heavy download',
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
  });
});
