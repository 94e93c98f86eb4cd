import { describe, expect, it } from 'vitest';
import { MAX_STATEMENT_PARAMETERS, parameterChunks } from './bulk-insert.ts';

describe('parameterChunks', () => {
  it.each([
    [0, 7, []],
    [3, 7, [3]],
    [20_000, 7, [4285, 4285, 4285, 4285, 2860]],
    [20_000, 1, [20_000]],
  ])('%i rows of %i parameters go in runs of %j', (rows, perRow, sizes) => {
    const chunks = parameterChunks(
      Array.from({ length: rows }, (_, i) => i),
      perRow,
    );
    expect(chunks.map((chunk) => chunk.length)).toEqual(sizes);
    expect(chunks.flat()).toEqual(Array.from({ length: rows }, (_, i) => i));
    for (const chunk of chunks) expect(chunk.length * perRow).toBeLessThanOrEqual(MAX_STATEMENT_PARAMETERS);
  });

  it('puts a row wider than the budget alone rather than nowhere', () => {
    expect(parameterChunks(['a', 'b'], 100, 10)).toEqual([['a'], ['b']]);
  });
});
