import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './database-unavailable.ts';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });
const named = (name: string, message = 'x') => Object.assign(new Error(message), { name });

describe('isDatabaseUnavailable', () => {
  it.each([
    ['no pooled connection in time', named('KnexTimeoutError', 'Knex: Timeout acquiring a connection. The pool is probably full.'), true],
    ['connection refused', withCode('ECONNREFUSED'), true],
    ['connection reset', withCode('ECONNRESET'), true],
    ['connection exception (08006)', withCode('08006'), true],
    ['too many connections (53300)', withCode('53300'), true],
    ['disk full (53100)', withCode('53100'), true],
    ['server shutting down (57P01)', withCode('57P01'), true],
    ['pg: the server ended the connection', new Error('Connection terminated unexpectedly'), true],
    ['unique violation (23505)', withCode('23505'), false],
    ['check violation (23514)', withCode('23514'), false],
    ['raised by a trigger (P0001)', withCode('P0001'), false],
    ['lock timeout (55P03)', withCode('55P03'), false],
    ['a plain error of some code', new Error('no template for kind'), false],
    ['not an error at all', 'boom', false],
  ] as const)('%s → %s', (_name, error, expected) => {
    expect(isDatabaseUnavailable(error)).toBe(expected);
  });
});
