// Writes the corpus' small files to files/ (committed): npx tsx src/server/test/corpus/write-files.ts
// The walk (doors.test.ts) holds each committed file equal to what its maker makes.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bytesOf, CORPUS, FILES_DIR, isCommitted } from './corpus';

mkdirSync(FILES_DIR, { recursive: true });
for (const file of CORPUS.filter(isCommitted)) {
  writeFileSync(join(FILES_DIR, file.name), await bytesOf(file));
}
