import { Ajv } from 'ajv';
import type { FastifySchemaValidationError } from 'fastify';
import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import { formatValidationErrors } from './validation-messages.ts';

// The options core gives Fastify's ajv: verbose errors carry their schema.
const ajv = new Ajv({ allErrors: false, verbose: true, strict: false });
const schema = Type.Object(
  {
    name: Type.String({ minLength: 1 }),
    provider: Type.Union([Type.Literal('Push'), Type.Literal('Email')]),
    colour: Type.Optional(Type.Unsafe<string>({ type: 'string', enum: ['red', 'green'] })),
    filter: Type.Optional(
      Type.Object({ feeders: Type.Optional(Type.Array(Type.String())), keywords: Type.Optional(Type.Array(Type.String())) }, { additionalProperties: false }),
    ),
  },
  { additionalProperties: false },
);
const validate = ajv.compile(schema);
const messageFor = (data: unknown) => {
  expect(validate(data)).toBe(false);
  return formatValidationErrors(validate.errors as FastifySchemaValidationError[], 'body').message;
};
const ok = { name: 'x', provider: 'Push' };

describe('formatValidationErrors', () => {
  it.each([
    ['an unknown property, with the allowed ones', { ...ok, filter: { area: [] } }, 'body/filter has an unknown property "area" (allowed: feeders, keywords)'],
    ['an unknown top-level property', { ...ok, owner: 1 }, 'body has an unknown property "owner" (allowed: name, provider, colour, filter)'],
    [
      'a long unknown name, cut',
      { ...ok, ['x'.repeat(100)]: 1 },
      `body has an unknown property "${'x'.repeat(64)}…" (allowed: name, provider, colour, filter)`,
    ],
    ['a union of literals', { ...ok, provider: 'Pigeon' }, 'body/provider must be one of: Push, Email'],
    ['an enum', { ...ok, colour: 'blue' }, 'body/colour must be one of: red, green'],
    ['a missing property', { provider: 'Push' }, "body must have required property 'name'"],
    ['a wrong type', { ...ok, filter: { feeders: 'F1' } }, 'body/filter/feeders must be array'],
  ])('%s', (_name, data, message) => {
    expect(messageFor(data)).toBe(message);
  });
});
