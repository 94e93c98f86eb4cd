import { randomBytes, randomFillSync } from 'node:crypto';

// Refilled from the system's CSPRNG when spent; each byte is handed out once.
const pool = Buffer.alloc(4096);
let offset = pool.length;

/**
 * `bytes` random bytes (crypto.randomBytes' source) as base64url text.
 * Drawn from a 4 KiB pool, as Node's own randomUUID does: a randomBytes
 * call costs about 10 µs on these machines, and a create needs three (its
 * id, its manage token, its push topic).
 */
export function randomToken(bytes: number): string {
  if (bytes > pool.length) return randomBytes(bytes).toString('base64url');
  if (offset + bytes > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const text = pool.toString('base64url', offset, offset + bytes);
  offset += bytes;
  return text;
}
