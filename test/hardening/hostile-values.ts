import fc from 'fast-check';
import type { Seeds } from './hostile-harness.ts';

/**
 * fast-check arbitraries of hostile request parts: strings PostgreSQL
 * refuses, wrong types, deep nesting, long lists, prototype keys, and
 * values shaped by a route's own JSON schema (so a case gets past the
 * schema to the handler and the database), mixed with the seeds (real ids
 * and tokens) so the handlers' deeper paths run too.
 */

const NASTY = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfff',
  '\udc00\ud800',
  'Invoice\u202egpj.exe',
  'hdr\r\nBcc: victim@example.net',
  '<script>alert(1)</script>',
  "'; DROP TABLE notification_subscriptions; --",
  '%00',
  '../../etc/passwd',
  '9'.repeat(30),
  'x'.repeat(5000),
  'One-Click',
  'Push',
  'Email',
  'utility.power-outages',
  'hello@example.org',
  'HELLO@EXAMPLE.ORG',
  '2001:DB8::1',
  '🏠',
  '__proto__',
  'constructor',
];

const NUMBERS = [0, -1, 1, 1.5, 2 ** 31, 2 ** 53, Number.MAX_SAFE_INTEGER, 1e23, -1e308, 1e308];

export function hostileString(seeds: Seeds): fc.Arbitrary<string> {
  const seeded = Object.values(seeds);
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...NASTY) },
    { weight: 2, arbitrary: fc.constantFrom(...seeded) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
  );
}

/** Any JSON value, hostile strings included, a few levels deep. */
export function anyJson(seeds: Seeds): fc.Arbitrary<unknown> {
  const { value } = fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      hostileString(seeds),
      fc.constantFrom(...NUMBERS),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('value'), { maxLength: 6 }),
      fc.dictionary(fc.oneof(hostileString(seeds), fc.string({ maxLength: 8 })), tie('value'), { maxKeys: 5 }),
    ),
  }));
  return value;
}

type Schema = Record<string, unknown>;

/** Values that mostly fit a JSON schema, sometimes not at all; a wrong type anywhere is as likely as a bad value. */
export function fromSchema(schema: unknown, seeds: Seeds, depth = 0): fc.Arbitrary<unknown> {
  const wrong = anyJson(seeds);
  if (!schema || typeof schema !== 'object' || depth > 6) return wrong;
  const s = schema as Schema;
  const fitting = shaped(s, seeds, depth);
  return fc.oneof({ weight: 5, arbitrary: fitting }, { weight: 1, arbitrary: wrong });
}

function shaped(s: Schema, seeds: Seeds, depth: number): fc.Arbitrary<unknown> {
  if ('const' in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  if (Array.isArray(s.anyOf)) return fc.oneof(...(s.anyOf as unknown[]).map((branch) => fromSchema(branch, seeds, depth + 1)));
  switch (s.type) {
    case 'object': {
      const properties = (s.properties ?? {}) as Record<string, unknown>;
      const known = Object.entries(properties).map(([key, sub]) =>
        fc.option(
          fromSchema(sub, seeds, depth + 1).map((value) => [key, value] as const),
          { nil: undefined },
        ),
      );
      const extra = fc.option(fc.tuple(hostileString(seeds), anyJson(seeds)), { nil: undefined, freq: 6 });
      return fc.tuple(fc.tuple(...known), extra).map(([entries, more]) => {
        const object: Record<string, unknown> = {};
        for (const entry of entries) if (entry) object[entry[0]] = entry[1];
        if (more) Object.defineProperty(object, more[0], { value: more[1], enumerable: true, writable: true, configurable: true });
        return object;
      });
    }
    case 'array':
      return fc.oneof({ weight: 6, arbitrary: fc.array(fromSchema(s.items, seeds, depth + 1), { maxLength: 4 }) }, { weight: 1, arbitrary: fc.constant([]) });
    case 'string':
      return hostileString(seeds);
    case 'integer':
    case 'number':
      return fc.oneof(fc.constantFrom(...NUMBERS), fc.integer());
    case 'boolean':
      return fc.boolean();
    default:
      return anyJson(seeds);
  }
}

/** The `examples` of a JSON schema (a route's body schema may give some: the fuzzer then starts from them). */
export function examplesOf(schema: unknown): unknown[] {
  const examples = (schema as { examples?: unknown } | undefined)?.examples;
  return Array.isArray(examples) ? examples : [];
}

/** A body as sent: JSON of a value, or text JSON.stringify cannot write (deep nesting, prototype keys, a huge list). */
export function bodyText(schema: unknown, seeds: Seeds): fc.Arbitrary<string> {
  const examples = examplesOf(schema);
  return fc.oneof(
    ...(examples.length > 0 ? [{ weight: 8, arbitrary: mutatedExample(examples, seeds).map((value) => JSON.stringify(value) ?? 'null') }] : []),
    { weight: 6, arbitrary: fromSchema(schema, seeds).map((value) => JSON.stringify(value) ?? 'null') },
    { weight: 2, arbitrary: anyJson(seeds).map((value) => JSON.stringify(value) ?? 'null') },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        `${'['.repeat(3000)}${']'.repeat(3000)}`,
        `${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}`,
        `[${Array(4000).fill('0').join(',')}]`,
        `{"ids":[${Array(1500).fill('1').join(',')}]}`,
        '{"__proto__":{"isAdmin":true}}',
        '{"constructor":{"prototype":{"isAdmin":true}}}',
        '{"displayName":"a","displayName":"b"}',
        '{"ids":[99999999999999999999999]}',
        '{"List-Unsubscribe":5}',
        '{',
        '',
        'null',
        '"\\u0000"',
        '"\\ud800"',
      ),
    },
  );
}

/** What every part of a schema example is replaced with, one at a time, in the systematic cases. */
export const CANONICAL_REPLACEMENTS: readonly unknown[] = [
  'a\u0000b',
  '\ud800',
  'x\udc00',
  'Invoice\u202egpj.exe',
  'x'.repeat(5000),
  '',
  1e23,
  2 ** 53,
  -1,
  1.5,
  null,
  true,
  {},
  [],
  { __proto__: null, constructor: { prototype: { polluted: true } } },
];

type Path = ReadonlyArray<string | number>;

function pathsOf(value: unknown, prefix: Path = []): Path[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => [[...prefix, index], ...pathsOf(item, [...prefix, index])]);
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => [[...prefix, key], ...pathsOf(item, [...prefix, key])]);
  }
  return [];
}

function replaced(value: unknown, path: Path, replacement: unknown): unknown {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = path[path.length - 1];
  if (replacement === REMOVE) {
    if (Array.isArray(node)) node.splice(last as number, 1);
    else delete node[last];
  } else {
    node[last] = replacement;
  }
  return copy;
}

const REMOVE = Symbol('remove');

/** Every example with one part replaced by each canonical replacement, or removed; plus one unknown property. */
export function mutationsOf(example: unknown): unknown[] {
  const out: unknown[] = [example];
  for (const path of pathsOf(example)) {
    for (const replacement of [...CANONICAL_REPLACEMENTS, REMOVE]) out.push(replaced(example, path, replacement));
  }
  if (example !== null && typeof example === 'object' && !Array.isArray(example)) out.push({ ...example, unexpected: 'x' });
  return out;
}

/** One random mutation of an example: a part replaced by a hostile value, mostly of its own type. */
export function mutatedExample(examples: readonly unknown[], seeds: Seeds): fc.Arbitrary<unknown> {
  return fc
    .record({
      example: fc.constantFrom(...examples),
      pick: fc.nat(),
      replacement: fc.oneof(fc.constantFrom(...CANONICAL_REPLACEMENTS), hostileString(seeds), anyJson(seeds)),
    })
    .map(({ example, pick, replacement }) => {
      const paths = pathsOf(example);
      return paths.length === 0 ? replacement : replaced(example, paths[pick % paths.length], replacement);
    });
}
