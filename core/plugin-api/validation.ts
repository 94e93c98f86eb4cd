import { Ajv, type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { Static, TSchema } from 'typebox';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const ajv = addFormats(new Ajv({ allErrors: false, strict: false, coerceTypes: false, removeAdditional: false }));

export type ValidationResult<T> = { ok: true; value: T } | { ok: false; error: string };

const describe = (error: ErrorObject) => `${error.instancePath || '(root)'} ${error.message ?? 'is invalid'}`.trim();

/**
 * Compiles a TypeBox schema once into a checker of untrusted data (a feed's
 * answer): the error names the path and the rule, never the data.
 */
export function createValidator<S extends TSchema>(schema: S): (data: unknown) => ValidationResult<Static<S>> {
  const validate = ajv.compile(schema);
  return (data) => (validate(data) ? { ok: true, value: data as Static<S> } : { ok: false, error: describe(validate.errors![0]) });
}
