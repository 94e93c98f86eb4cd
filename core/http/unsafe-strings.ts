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
 * items, at any depth), or null. Iterative, so a deeply nested body cannot
 * exhaust the stack.
 */
export function findUnsafeString(value: unknown, root: string): UnsafeString | null {
  const stack: Array<[unknown, string]> = [[value, root]];
  while (stack.length > 0) {
    const [current, path] = stack.pop()!;
    if (typeof current === 'string') {
      const problem = problemOf(current);
      if (problem) return { path, problem };
    } else if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index -= 1) stack.push([current[index], `${path}/${index}`]);
    } else if (current !== null && typeof current === 'object') {
      const keys = Object.keys(current);
      for (const key of keys) {
        const problem = problemOf(key);
        if (problem) return { path, problem: `has a property name that ${problem.replace('must not contain', 'contains')}` };
      }
      for (let index = keys.length - 1; index >= 0; index -= 1) {
        stack.push([(current as Record<string, unknown>)[keys[index]], `${path}/${keys[index]}`]);
      }
    }
  }
  return null;
}
