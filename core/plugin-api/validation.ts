import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { Static, TSchema } from 'typebox';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const ajv = addFormats(new Ajv({ allErrors: false, strict: false, coerceTypes: false, removeAdditional: false }));

export type ValidationResult<T> = { ok: true; value: T } | { ok: false; error: string };

const describe = (error: ErrorObject) => `${error.instancePath || '(root)'} ${error.message ?? 'is invalid'}`.trim();

/**
 * Compiles a TypeBox schema once into a checker of untrusted data (a feed's
 * answer): the error names the path and the rule, never the data. The
 * compiling waits for the first check: plugins create their validators on
 * import, and a start (feeds off by default) need not pay for them.
 */
export function createValidator<S extends TSchema>(schema: S): (data: unknown) => ValidationResult<Static<S>> {
  let validate: ValidateFunction | undefined;
  return (data) => {
    validate ??= ajv.compile(schema);
    return validate(data) ? { ok: true, value: data as Static<S> } : { ok: false, error: describe(validate.errors![0]) };
  };
}
