import { describe, expect, it } from 'vitest';
import { AnswerTooLargeError, readCapped } from './capped-body.ts';

async function* chunks(sizes: number[], seen: { count: number }) {
  for (const size of sizes) {
    seen.count += 1;
    yield new Uint8Array(size).fill(65);
  }
}

describe('readCapped', () => {
  it('reads a body up to the limit, the limit included', async () => {
    const seen = { count: 0 };
    expect((await readCapped(chunks([4, 4, 2], seen), 10)).toString()).toBe('AAAAAAAAAA');
  });

  it('stops at the first chunk past the limit and reads no further', async () => {
    const seen = { count: 0 };
    await expect(readCapped(chunks([4, 4, 4, 4, 4], seen), 10)).rejects.toThrow(AnswerTooLargeError);
    expect(seen.count).toBe(3);
  });

  it('says the limit in the message', async () => {
    await expect(readCapped(chunks([11], { count: 0 }), 10)).rejects.toThrow('larger than 10 bytes');
  });
});
