// `npm start`: build once if needed, then run the production server in this process (so SIGINT and
// SIGTERM reach it directly and the embedded database closes cleanly).
import { buildIfNeeded } from './build-if-needed.mjs';

buildIfNeeded();
await import('../dist/server/main.js');
