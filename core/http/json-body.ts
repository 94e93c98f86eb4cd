import type { FastifyInstance } from 'fastify';
import { Errors } from '../errors.ts';

export type ParsedBody = { ok: true; value: unknown } | { ok: false; message: string };

const FORBIDDEN_KEYS = new Set(['__proto__']);

/** The first property name that could reach an object's prototype (`__proto__`, `constructor.prototype`), with its path; iterative. */
function prototypeKey(value: unknown): string | null {
  const stack: Array<[unknown, string]> = [[value, 'body']];
  while (stack.length > 0) {
    const [current, path] = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (Array.isArray(current)) {
      current.forEach((item, index) => {
        stack.push([item, `${path}/${index}`]);
      });
      continue;
    }
    for (const [key, child] of Object.entries(current)) {
      if (FORBIDDEN_KEYS.has(key)) return `${path}/${key}`;
      if (key === 'constructor' && child !== null && typeof child === 'object' && Object.hasOwn(child, 'prototype')) return `${path}/constructor/prototype`;
      stack.push([child, `${path}/${key}`]);
    }
  }
  return null;
}

/**
 * A JSON request body (pure): parsed, or why not in words a client can
 * act on, naming the field where there is one. A property that could
 * reach an object's prototype is refused by name rather than dropped.
 */
export function parseJsonBody(text: string): ParsedBody {
  if (text.trim() === '') return { ok: false, message: 'body is empty: send a JSON value, or no content-type' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `body is not valid JSON: ${(error as Error).message}` };
  }
  const key = prototypeKey(value);
  if (key !== null) return { ok: false, message: `${key}: this property name is not allowed` };
  return { ok: true, value };
}

/** Fastify's JSON parser replaced with parseJsonBody, for every route (core's and the plugins'). */
export function installJsonBodyParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const parsed = parseJsonBody(body as string);
    if (parsed.ok) done(null, parsed.value);
    else done(new Errors.InvalidField(parsed.message), undefined);
  });
}
