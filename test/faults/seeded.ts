/**
 * The suite's randomness, replayable: FAULT_SEED, else a seed drawn now,
 * printed either way so a failing run can be run again as it was.
 */
export function seededRandom(label: string): () => number {
  const seed = Number(process.env.FAULT_SEED ?? Math.floor(Math.random() * 2 ** 31));
  console.log(`fault: ${label}: seed ${seed} (FAULT_SEED=${seed} replays it)`);
  // mulberry32: small, fast, and the same sequence for a seed on every machine.
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}
