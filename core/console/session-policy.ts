/**
 * When a console sign-in ends (pure; the clock is an input): SessionHours
 * after it, or when the admin token that made it ends (its `exp`), if that
 * comes first. The end is fixed at sign-in: writing the session later
 * (a CSRF token, a sign-in under way) never moves it.
 */
export function sessionEnd(now: Date, sessionHours: number, adminToken?: string): number {
  return Math.min(now.getTime() + sessionHours * 3_600_000, adminToken === undefined ? Number.POSITIVE_INFINITY : tokenEnd(adminToken));
}

/** When a token (already verified) ends: its `exp` claim; none, or unreadable: no end of its own. */
function tokenEnd(token: string): number {
  try {
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof claims.exp === 'number' ? claims.exp * 1000 : Number.POSITIVE_INFINITY;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}
