// Authentication and access control of the local ntfy-compatible server (the demo's push inbox and
// the tests' push server double), modelled on ntfy's user manager:
// access tokens map to users, ACL entries grant a permission on a topic pattern to a user or to
// everyone ('*'), and the most specific entry wins.

export type Permission = 'read-write' | 'read-only' | 'write-only' | 'deny-all';

export interface AclEntry {
  /** A user name, or '*' for everyone (anonymous visitors and every user). */
  readonly user: string;
  /** A topic name, or a pattern where '*' matches any run of characters. */
  readonly topic: string;
  readonly permission: Permission;
}

/** Outcome of reading the Authorization header: a user, anonymous (null), or bad credentials. */
export type AuthResult = { readonly user: string | null } | 'unauthorized';

const ANONYMOUS: AuthResult = { user: null };

/**
 * `Authorization: Bearer <token>` (scheme spelled exactly so), or Basic with an empty user name and
 * the token as password (ntfy accepts both for tokens). No header is anonymous; anything else,
 * including an unknown token or a Basic user/password (this server has no passwords), is 401.
 */
export function authenticate(header: string | undefined, tokens: ReadonlyMap<string, string>): AuthResult {
  if (header === undefined || header === '') return ANONYMOUS;
  let token: string | undefined;
  if (header.startsWith('Bearer ')) {
    token = header.slice(7).trim();
  } else if (header.startsWith('Basic ')) {
    const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
    if (decoded.startsWith(':')) token = decoded.slice(1);
  }
  if (token === undefined || token === '') return 'unauthorized';
  const user = tokens.get(token);
  return user === undefined ? 'unauthorized' : { user };
}

interface CompiledEntry {
  readonly user: string;
  readonly match: (topic: string) => boolean;
  readonly permission: Permission;
  readonly specificity: readonly [number, number, number];
}

function compilePattern(pattern: string): (topic: string) => boolean {
  if (!pattern.includes('*')) return (topic) => topic === pattern;
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  const re = new RegExp(`^${source}$`);
  return (topic) => re.test(topic);
}

function bySpecificity(a: CompiledEntry, b: CompiledEntry): number {
  for (let i = 0; i < 3; i++) {
    const d = b.specificity[i] - a.specificity[i];
    if (d !== 0) return d;
  }
  return 0;
}

export interface AccessControl {
  permission(user: string | null, topic: string): Permission;
  canRead(user: string | null, topic: string): boolean;
  canWrite(user: string | null, topic: string): boolean;
}

/**
 * The most specific matching entry decides: an entry for the user beats one for everyone, an exact
 * topic beats a pattern with a wildcard, and a longer pattern beats a shorter one. With no match,
 * `defaultAccess` applies. Decisions are memoised per (user, topic), so a lookup is O(1) after the
 * first request for that pair.
 */
export function createAccessControl(acl: readonly AclEntry[], defaultAccess: Permission): AccessControl {
  const entries: CompiledEntry[] = acl
    .map((e) => ({
      user: e.user,
      match: compilePattern(e.topic),
      permission: e.permission,
      specificity: [e.user === '*' ? 0 : 1, e.topic.includes('*') ? 0 : 1, e.topic.length] as const,
    }))
    .sort(bySpecificity);
  const memo = new Map<string, Permission>();

  const permission = (user: string | null, topic: string): Permission => {
    const key = `${user ?? ''}\u0000${topic}`;
    let found = memo.get(key);
    if (found === undefined) {
      const entry = entries.find((e) => (e.user === '*' || e.user === user) && e.match(topic));
      found = entry?.permission ?? defaultAccess;
      memo.set(key, found);
    }
    return found;
  };
  return {
    permission,
    canRead: (user, topic) => {
      const p = permission(user, topic);
      return p === 'read-write' || p === 'read-only';
    },
    canWrite: (user, topic) => {
      const p = permission(user, topic);
      return p === 'read-write' || p === 'write-only';
    },
  };
}

/** Token bucket per visitor, like ntfy's request limiter (burst, then refill at a steady rate). */
export interface RateLimit {
  readonly burst: number;
  readonly refillPerSecond: number;
}

export function createRateLimiter(limit: RateLimit): { allow(visitor: string): boolean; clear(): void } {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    allow(visitor) {
      const now = performance.now() / 1000;
      let b = buckets.get(visitor);
      if (b === undefined) {
        b = { tokens: limit.burst, at: now };
        buckets.set(visitor, b);
      } else {
        b.tokens = Math.min(limit.burst, b.tokens + (now - b.at) * limit.refillPerSecond);
        b.at = now;
      }
      if (b.tokens < 1) return false;
      b.tokens -= 1;
      return true;
    },
    clear() {
      buckets.clear();
    },
  };
}
