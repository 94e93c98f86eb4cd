import { Ajv, type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { EnvSnapshot } from './env-source.ts';
import { envToTree } from './env-tree.ts';
import { addConfigFormats, CONFIG_FORMATS } from './formats.ts';
import { deepFreeze, isObjectNode, recordValueSchema, type JsonSchema } from './schema-walk.ts';
import { findSectionTypo, type SectionTypo } from './section-typos.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

export interface LoadedConfig {
  /** The validated, frozen tree. */
  config: Readonly<Record<string, unknown>>;
  /** Values of every `x-secret` key that is set: redacted from all logs. */
  secrets: string[];
  unknownKeys: string[];
  /** Variables whose first level looks like a misspelled section (`Serverr__Port`): ignored, worth a warning. */
  sectionTypos: SectionTypo[];
}

export function createConfigAjv(): Ajv {
  const ajv = new Ajv({ coerceTypes: true, useDefaults: true, allErrors: true, strict: false, verbose: true });
  addFormats(ajv);
  return addConfigFormats(ajv);
}

/** `/PowerOutages/PollingIntervalSeconds` → `PowerOutages__PollingIntervalSeconds`. */
function envKeyOf(error: ErrorObject): string {
  const segments = error.instancePath.split('/').filter(Boolean);
  if (error.keyword === 'required') segments.push(String(error.params.missingProperty));
  return segments.join('__') || '(root)';
}

/** Validation messages name the key and the rule, never a secret's value (a format of our own shows others'). */
function describe(error: ErrorObject): string {
  const key = envKeyOf(error);
  const own = error.keyword === 'format' ? CONFIG_FORMATS[String(error.params.format)] : undefined;
  if (own) return `${key} must be ${own.label}${error.parentSchema?.['x-secret'] ? '' : ` (got ${JSON.stringify(error.data)})`}`;
  switch (error.keyword) {
    case 'required':
      return `${key} is required`;
    case 'enum':
      return `${key} must be one of: ${(error.params.allowedValues as unknown[]).join(', ')}`;
    case 'anyOf':
      return `${key} has a value that is not allowed`;
    default:
      return `${key} ${error.message ?? 'is invalid'}`;
  }
}

export function collectSecrets(schema: JsonSchema, value: unknown, found: string[] = []): string[] {
  if (value === undefined || value === null) return found;
  if (schema['x-secret'] && typeof value === 'string' && value !== '') found.push(value);
  if (typeof value === 'object') {
    const recordValue = recordValueSchema(schema);
    for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
      const childSchema = schema.properties?.[key] ?? recordValue;
      if (childSchema) collectSecrets(childSchema, child, found);
    }
  }
  return found;
}

/** Set variables whose first level looks like a misspelled section (rule in section-typos.ts). */
function sectionTyposIn(env: EnvSnapshot, schema: JsonSchema): SectionTypo[] {
  const sections = Object.entries(schema.properties ?? {})
    .filter(([, node]) => isObjectNode(node) || recordValueSchema(node))
    .map(([name]) => name);
  return Object.entries(env).flatMap(([name, value]) => (value?.trim() ? (findSectionTypo(name, sections) ?? []) : []));
}

/**
 * Reads the configuration tree from an environment snapshot, validates it
 * once against the composed schema (defaults applied, strings coerced), and
 * freezes it. A bad value throws ConfigError naming every offending key.
 */
export function loadConfig(env: EnvSnapshot, schema: JsonSchema): LoadedConfig {
  const { tree, unknownKeys } = envToTree(env, schema);
  const validate = createConfigAjv().compile(structuredClone(schema));
  if (!validate(tree)) {
    const problems = [...new Set((validate.errors ?? []).filter((e) => e.keyword !== 'if').map(describe))];
    throw new ConfigError(problems);
  }
  return { config: deepFreeze(tree), secrets: collectSecrets(schema, tree), unknownKeys, sectionTypos: sectionTyposIn(env, schema) };
}
