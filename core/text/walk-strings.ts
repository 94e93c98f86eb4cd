/** Where a string with a problem is, in Fastify's notation (`body/filter/feeders/0`), and whether it is a property name. */
export interface StringProblem<P> {
  readonly path: string;
  readonly problem: P;
  readonly inPropertyName: boolean;
}

/**
 * The first string of a parsed value (strings, object keys, array items,
 * at any depth) that `problemOf` finds something wrong with, or null.
 * Iterative, so a deeply nested value cannot exhaust the stack. Pure.
 */
export function firstStringProblem<P>(value: unknown, root: string, problemOf: (text: string) => P | null): StringProblem<P> | null {
  const stack: Array<[unknown, string]> = [[value, root]];
  while (stack.length > 0) {
    const [current, path] = stack.pop()!;
    if (typeof current === 'string') {
      const problem = problemOf(current);
      if (problem !== null) return { path, problem, inPropertyName: false };
    } else if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index -= 1) stack.push([current[index], `${path}/${index}`]);
    } else if (current !== null && typeof current === 'object') {
      const keys = Object.keys(current);
      for (const key of keys) {
        const problem = problemOf(key);
        if (problem !== null) return { path, problem, inPropertyName: true };
      }
      for (let index = keys.length - 1; index >= 0; index -= 1) stack.push([(current as Record<string, unknown>)[keys[index]], `${path}/${keys[index]}`]);
    }
  }
  return null;
}
