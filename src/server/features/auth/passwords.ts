import { type Algorithm, hash, verify } from '@node-rs/argon2';

// argon2id with the parameters of DESIGN.md §5 (OWASP's minimum: 19 MiB, 2 passes, 1 lane).
// `Algorithm` is a const enum in the typings; 2 is its Argon2id member.
export const ARGON2ID = 2 as Algorithm;
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

// Verified against when the e-mail is unknown, so that both failures take the same time.
let decoyHash: Promise<string> | null = null;
export function decoyPasswordHash(): Promise<string> {
  decoyHash ??= hashPassword('inmoflujo-decoy-password');
  return decoyHash;
}
