import type { Knex } from 'knex';
import { pgArray as array } from '../plugin-api/pg-array.ts';
import { nextPause } from './pause-policy.ts';

/**
 * A lane's shared state (`delivery_lanes`), kept on the database's clock
 * so every instance keeps to one rate and one pause: the next free send
 * slot, and when a pause ends.
 */

/** Makes sure every lane has its row (two instances starting together both may ask). */
export async function ensureLanes(db: Knex, providers: readonly string[]): Promise<void> {
  if (providers.length === 0) return;
  await db.raw('INSERT INTO delivery_lanes (provider) SELECT unnest(?::text[]) ON CONFLICT (provider) DO NOTHING', [array(providers)]);
}

/**
 * Takes `count` send slots at `ratePerSecond` for the lane, one after the
 * other from the next free one (never before now): returns how many
 * milliseconds from now the first one starts (the others follow every
 * 1/rate s), or null while the lane is paused (no slot is taken then).
 * A lane that never sent (no next slot yet) starts now.
 * The row lock makes instances take slots one after another, so together
 * they never exceed the rate.
 */
export async function takeSlots(db: Knex, provider: string, count: number, ratePerSecond: number): Promise<number | null> {
  const result = await db.raw(
    `UPDATE delivery_lanes
        SET next_slot_at = GREATEST(next_slot_at, now()) + make_interval(secs => ?::float8)
      WHERE provider = ? AND (paused_until IS NULL OR paused_until <= now())
      RETURNING 1000 * EXTRACT(EPOCH FROM next_slot_at - make_interval(secs => ?::float8) - now()) AS first_ms`,
    [count / ratePerSecond, provider, count / ratePerSecond],
  );
  const row = result.rows[0] as { first_ms: string | number } | undefined;
  return row ? Math.max(0, Number(row.first_ms)) : null;
}

/**
 * Pauses the lane on every instance (nextPause decides for how long, from
 * what the row says of the last pause), in one short transaction under the
 * row's lock. Returns the milliseconds until the pause ends (0: not paused).
 */
export async function pauseLane(db: Knex, provider: string, retryAfterSeconds: number | undefined, because: string): Promise<number> {
  return db.transaction(async (trx) => {
    const result = await trx.raw('SELECT paused_until, pause_seconds, now() AS now FROM delivery_lanes WHERE provider = ? FOR UPDATE', [provider]);
    const row = result.rows[0] as { paused_until: Date | string | null; pause_seconds: number | string; now: Date | string } | undefined;
    if (!row) return 0;
    const now = new Date(row.now);
    const pausedUntil = row.paused_until === null ? null : new Date(row.paused_until);
    const next = nextPause({ pausedUntil, lastSeconds: Number(row.pause_seconds) }, retryAfterSeconds, now);
    if (!next) return pausedUntil && pausedUntil > now ? pausedUntil.getTime() - now.getTime() : 0;
    await trx.raw('UPDATE delivery_lanes SET paused_until = ?::timestamptz, pause_seconds = ?, paused_because = ? WHERE provider = ?', [
      next.until.toISOString(),
      next.seconds,
      because.slice(0, 200),
      provider,
    ]);
    return next.until.getTime() - now.getTime();
  });
}

/** Milliseconds until the lane's pause ends (0: not paused). */
export async function pausedForMs(db: Knex, provider: string): Promise<number> {
  const result = await db.raw('SELECT GREATEST(0, 1000 * EXTRACT(EPOCH FROM paused_until - now())) AS ms FROM delivery_lanes WHERE provider = ?', [provider]);
  const ms = result.rows[0]?.ms;
  return ms === null || ms === undefined ? 0 : Number(ms);
}

/** Each lane's pause as operators see it. */
export async function lanePauses(db: Knex): Promise<Map<string, { pausedUntil: Date | null; because: string | null }>> {
  const result = await db.raw('SELECT provider, CASE WHEN paused_until > now() THEN paused_until END AS paused_until, paused_because FROM delivery_lanes');
  return new Map(
    (result.rows as Array<{ provider: string; paused_until: Date | string | null; paused_because: string | null }>).map((row) => [
      row.provider,
      { pausedUntil: row.paused_until === null ? null : new Date(row.paused_until), because: row.paused_until === null ? null : row.paused_because },
    ]),
  );
}
