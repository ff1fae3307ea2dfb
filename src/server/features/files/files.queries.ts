import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { storedFiles } from '../../db/schema';

export interface NewStoredFile {
  name: string;
  contentType: string;
  bytes: Buffer;
  width: number;
  height: number;
  createdBy: string;
}

export interface StoredFileContent {
  contentType: string;
  bytes: Buffer;
}

export async function insertStoredFile(tx: Executor, file: NewStoredFile): Promise<void> {
  await tx.insert(storedFiles).values({ ...file, byteSize: file.bytes.length });
}

/** The bytes and type of a file by its server-made name, or null. */
export async function findStoredFileContent(db: Executor, name: string): Promise<StoredFileContent | null> {
  const [row] = await db
    .select({ contentType: storedFiles.contentType, bytes: storedFiles.bytes })
    .from(storedFiles)
    .where(eq(storedFiles.name, name));
  return row ?? null;
}

/** Whether a file of that name exists, without reading its bytes (a revalidation answers 304). */
export async function storedFileExists(db: Executor, name: string): Promise<boolean> {
  const [row] = await db.select({ id: storedFiles.id }).from(storedFiles).where(eq(storedFiles.name, name));
  return row !== undefined;
}

export async function deleteStoredFileByName(tx: Executor, name: string): Promise<void> {
  await tx.delete(storedFiles).where(eq(storedFiles.name, name));
}
