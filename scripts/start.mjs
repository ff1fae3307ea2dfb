// `npm start`: build once if needed, then run the production server as the one worker of Node's own
// cluster primary, which starts it again if it dies (decision 0051). SIGINT and SIGTERM reach the
// primary, which passes them on: the server closes the embedded database cleanly, then both exit.
import cluster from 'node:cluster';
import { buildIfNeeded } from './build-if-needed.mjs';
import { supervise } from './supervise.mjs';

// The worker runs dist/server/main.js, never this file; this guard only makes that explicit.
if (!cluster.isPrimary) throw new Error('scripts/start.mjs runs only as the primary process.');

buildIfNeeded();
// The worker gets this process's Node options (the heap ceiling `npm start` passes, decision 0043).
process.exit(await supervise({ exec: 'dist/server/main.js', execArgv: process.execArgv }));
