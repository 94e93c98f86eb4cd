import { firstStringProblem } from '../text/walk-strings.ts';

/**
 * Strings PostgreSQL cannot store (pure): text and jsonb refuse a NUL
 * character, and a lone UTF-16 surrogate (half of a pair, as JSON's
 * `"\ud800"` produces) is not Unicode at all (jsonb refuses the escape, text
 * would silently get U+FFFD). Found anywhere in a request, they are a 400
 * naming the field, not a database error.
 */
export interface UnsafeString {
  /** Where, in Fastify's notation: `body/filter/feeders/0`, `querystring/token`, `headers/x-forwarded-for`. */
  readonly path: string;
  readonly problem: string;
}

function problemOf(value: string): string | null {
  if (value.includes('\u0000')) return 'must not contain a NUL character';
  if (!value.isWellFormed()) return 'must not contain a lone UTF-16 surrogate (malformed Unicode)';
  return null;
}

/**
 * The first unsafe string in a parsed value (strings, object keys, array
 * items, at any depth), or null.
 */
export function findUnsafeString(value: unknown, root: string): UnsafeString | null {
  const found = firstStringProblem(value, root, problemOf);
  if (!found) return null;
  return found.inPropertyName
    ? { path: found.path, problem: `has a property name that ${found.problem.replace('must not contain', 'contains')}` }
    : { path: found.path, problem: found.problem };
}
