import type { FastifySchemaValidationError } from 'fastify';

/**
 * One wording of schema errors for every route (Fastify's
 * `schemaErrorFormatter`): the field in Fastify's notation, then what is
 * wrong and, where the schema knows, what is allowed. Needs ajv's
 * `verbose` option (the failing schema travels with each error).
 */
type VerboseError = FastifySchemaValidationError & { schema?: unknown; parentSchema?: Record<string, unknown> };

const MAX_NAME_SHOWN = 64;
const shown = (name: string) => (name.length > MAX_NAME_SHOWN ? `${name.slice(0, MAX_NAME_SHOWN)}…` : name);
const list = (values: readonly unknown[]) => values.map((value) => (typeof value === 'string' ? value : JSON.stringify(value))).join(', ');

/** The constants of a union of literals (`anyOf: [{const}, …]`, TypeBox's Union of Literals), or null. */
function unionConstants(schema: unknown): unknown[] | null {
  if (!Array.isArray(schema) || schema.length === 0) return null;
  const values = schema.map((branch) =>
    branch !== null && typeof branch === 'object' && 'const' in branch ? (branch as { const: unknown }).const : undefined,
  );
  return values.every((value) => value !== undefined) ? values : null;
}

function describe(error: VerboseError, where: string): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties': {
      const properties = error.parentSchema?.properties;
      const allowed = properties && typeof properties === 'object' ? ` (allowed: ${Object.keys(properties).join(', ')})` : '';
      return `${where} has an unknown property "${shown(String(params.additionalProperty))}"${allowed}`;
    }
    case 'enum':
      return `${where} must be one of: ${list(params.allowedValues as unknown[])}`;
    case 'const':
      return `${where} must be ${list([params.allowedValue])}`;
    default:
      return `${where} ${error.message}`;
  }
}

export function formatValidationErrors(errors: readonly FastifySchemaValidationError[], dataVar: string): Error {
  const verbose = errors as readonly VerboseError[];
  // A union of literals fails once per branch, then as a whole: name the allowed values once.
  const union = verbose.find((error) => error.keyword === 'anyOf' && unionConstants(error.schema) !== null);
  if (union) return new Error(`${dataVar}${union.instancePath} must be one of: ${list(unionConstants(union.schema)!)}`);
  const messages = [...new Set(verbose.map((error) => describe(error, `${dataVar}${error.instancePath}`)))];
  return new Error(messages.join(', '));
}
