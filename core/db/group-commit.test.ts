import { describe, expect, it } from 'vitest';
import { GroupCommit, type ItemOutcome } from './group-commit.ts';

/** A writer that records each batch and holds it until released. */
function heldWriter(judge: (item: number) => ItemOutcome<string> = (item) => ({ ok: true, value: `stored ${item}` })) {
  const batches: number[][] = [];
  const releases: Array<() => void> = [];
  let failWhen: ((items: number[]) => boolean) | null = null;
  const write = async (items: number[]) => {
    batches.push(items);
    await new Promise<void>((resolve) => releases.push(resolve));
    if (failWhen?.(items)) throw new Error(`batch ${items.join(',')} failed`);
    return items.map(judge);
  };
  const releaseNext = async () => {
    releases.shift()!();
    await new Promise((resolve) => setImmediate(resolve));
  };
  const releaseAll = async () => {
    while (releases.length > 0) await releaseNext();
  };
  return { write, batches, releaseNext, releaseAll, failIf: (when: (items: number[]) => boolean) => void (failWhen = when) };
}

describe('GroupCommit', () => {
  it('writes a lone item at once, and the items that arrive meanwhile together in the next batch', async () => {
    const writer = heldWriter();
    const group = new GroupCommit(writer.write, { maxBatch: 10, concurrency: 1 });
    const results = [1, 2, 3, 4].map((item) => group.submit(item));
    expect(writer.batches).toEqual([[1]]);
    await writer.releaseAll();
    expect(await Promise.all(results)).toEqual(['stored 1', 'stored 2', 'stored 3', 'stored 4']);
    expect(writer.batches).toEqual([[1], [2, 3, 4]]);
  });

  it('holds a batch to maxBatch items and runs at most `concurrency` batches at once', async () => {
    const writer = heldWriter();
    const group = new GroupCommit(writer.write, { maxBatch: 2, concurrency: 2 });
    const results = [1, 2, 3, 4, 5, 6, 7].map((item) => group.submit(item));
    expect(writer.batches).toEqual([[1], [2]]);
    await writer.releaseAll();
    await Promise.all(results);
    expect(writer.batches.flat().sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(Math.max(...writer.batches.map((batch) => batch.length))).toBe(2);
  });

  it("gives each caller its own item's outcome: a refusal rejects only that caller", async () => {
    const writer = heldWriter((item) => (item % 2 === 0 ? { ok: false, error: new Error(`refused ${item}`) } : { ok: true, value: `stored ${item}` }));
    const group = new GroupCommit(writer.write, { maxBatch: 10, concurrency: 1 });
    const results = [1, 2, 3, 4].map((item) => group.submit(item).catch((error: Error) => error.message));
    await writer.releaseAll();
    expect(await Promise.all(results)).toEqual(['stored 1', 'refused 2', 'stored 3', 'refused 4']);
  });

  it('writes each item of a failed batch again on its own, one after another, so one bad item fails only its caller', async () => {
    const writer = heldWriter();
    writer.failIf((items) => items.includes(3));
    const group = new GroupCommit(writer.write, { maxBatch: 10, concurrency: 1 });
    const results = [1, 2, 3, 4].map((item) => group.submit(item).catch((error: Error) => error.message));
    await writer.releaseNext();
    await writer.releaseNext();
    expect(writer.batches).toEqual([[1], [2, 3, 4], [2]]);
    await writer.releaseAll();
    expect(await Promise.all(results)).toEqual(['stored 1', 'stored 2', 'batch 3 failed', 'stored 4']);
    expect(writer.batches).toEqual([[1], [2, 3, 4], [2], [3], [4]]);
  });

  it('gives the error at once to every caller of the batch and behind it when retryAlone says it is not an item’s (the database is down)', async () => {
    const writer = heldWriter();
    writer.failIf((items) => items.includes(2));
    const group = new GroupCommit(writer.write, { maxBatch: 2, concurrency: 1, retryAlone: () => false });
    const results = [1, 2, 3, 4, 5].map((item) => group.submit(item).catch((error: Error) => error.message));
    await writer.releaseAll();
    expect(await Promise.all(results)).toEqual(['stored 1', 'batch 2,3 failed', 'batch 2,3 failed', 'batch 2,3 failed', 'batch 2,3 failed']);
    expect(writer.batches).toEqual([[1], [2, 3]]);
    // The next caller is written as usual.
    const next = group.submit(6);
    await writer.releaseAll();
    expect(await next).toBe('stored 6');
  });

  it('treats a writer that answers for too few items as a failed batch: nobody waits for ever or gets another caller’s value', async () => {
    const batches: number[][] = [];
    const group = new GroupCommit(
      async (items: number[]) => {
        batches.push(items);
        // One outcome short for a batch of several: which caller it belongs to is unknown.
        return (items.length > 1 ? items.slice(1) : items).map((item) => ({ ok: true as const, value: `stored ${item}` }));
      },
      { maxBatch: 10, concurrency: 1 },
    );
    const results = [1, 2, 3].map((item) => group.submit(item).catch((error: Error) => error.message));
    expect(await Promise.all(results)).toEqual(['stored 1', 'stored 2', 'stored 3']);
    expect(batches).toEqual([[1], [2, 3], [2], [3]]);
  });

  it('lets an item be handed on: its caller gets what the promise comes to', async () => {
    let finish: (value: string) => void = () => undefined;
    const later = new Promise<string>((resolve) => (finish = resolve));
    const group = new GroupCommit(async (items: number[]) => items.map((item) => ({ ok: true as const, value: item === 2 ? later : `stored ${item}` })), {
      maxBatch: 10,
      concurrency: 1,
    });
    const first = group.submit(1);
    const second = group.submit(2);
    expect(await first).toBe('stored 1');
    // The writer is free again while the handed-on item is still out.
    expect(await group.submit(3)).toBe('stored 3');
    finish('written alone');
    expect(await second).toBe('written alone');
  });
});
