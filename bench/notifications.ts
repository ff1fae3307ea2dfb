// The task inboxes and live updates for `npm run bench` (issue 14): the notifications' first page (the
// user with the most pending tasks, every stage group at once), the follow-up's first page of every
// user's tasks (an administrator), and the badge again while the server holds 200 open event streams
// (/api/events, one per tab) — the streams are opened before that measurement and closed after it.
import { request } from 'node:http';

/** Open tabs the server holds while the badge is measured again. */
export const HELD_STREAMS = 200;

export function notificationEndpoints() {
  return [
    {
      key: 'notifications',
      label: 'notifications first page (badge user)',
      method: 'GET' as const,
      path: '/api/notifications',
      target: 25,
      as: 'badge' as const,
    },
    {
      key: 'followUp',
      label: 'follow-up first page (all users)',
      method: 'GET' as const,
      path: '/api/notifications/follow-up',
      target: 25,
    },
    {
      // Issue 28 §3: the user's mentions, newest first (the generated comments mention nobody: the
      // statement's plan on its index is what is measured).
      key: 'mentions',
      label: 'mentions first page (badge user)',
      method: 'GET' as const,
      path: '/api/notifications/mentions?status=all',
      target: 25,
      as: 'badge' as const,
    },
    {
      key: 'badgeWithStreams',
      label: `badge count with ${HELD_STREAMS} open event streams`,
      method: 'GET' as const,
      path: '/api/notifications/count',
      target: 25,
      as: 'badge' as const,
      hold: (origin: string, cookies: Record<string, string>) =>
        holdEventStreams(origin, cookies.badge!, HELD_STREAMS),
    },
  ];
}

/**
 * Opens `count` event streams as the user (each its own connection, as each tab's EventSource) and
 * waits until the server has said 'ready' on every one; resolves with what closes them all.
 */
export async function holdEventStreams(
  origin: string,
  cookie: string,
  count: number,
): Promise<() => Promise<void>> {
  const url = new URL('/api/events', origin);
  const open: (() => void)[] = [];
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const req = request(
        url,
        { headers: { cookie, origin, accept: 'text/event-stream' }, agent: false },
        (res) => {
          if (res.statusCode !== 200) {
            reject(new Error(`GET /api/events: ${res.statusCode}`));
            res.resume();
            return;
          }
          res.setEncoding('utf8');
          let seen = '';
          const onData = (chunk: string) => {
            seen += chunk;
            if (seen.includes('event: ready')) {
              res.off('data', onData);
              res.resume();
              resolve();
            }
          };
          res.on('data', onData);
        },
      );
      req.on('error', reject);
      req.end();
      open.push(() => req.destroy());
    });
  // A few at a time, as tabs open: the server is not flooded with connection setups.
  for (let from = 0; from < count; from += 20) {
    await Promise.all(Array.from({ length: Math.min(20, count - from) }, one));
  }
  return async () => {
    for (const close of open) close();
  };
}
