import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { GEOMETRY_MARK, type CheckedAnswer, type FeedAnswer, type RejectedItem, type RejectReason } from './feed-answer.ts';
import { cleanGeometry, geometryProblem } from './shape-checks.ts';
import type { AreaGeometry } from './shape-types.ts';
import type { ValidationResult } from './validation.ts';
import { firstStringProblem } from '../text/walk-strings.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const isDateTime = (fullFormats['date-time'] as { validate: (text: string) => boolean }).validate;
const isDate = (fullFormats.date as { validate: (text: string) => boolean }).validate;
const yearInRange = (text: string) => {
  const year = Number(text.slice(0, 4));
  return year >= 1900 && year <= 9999;
};

const ajv = addFormats(new Ajv({ allErrors: false, strict: false, coerceTypes: false, removeAdditional: false, verbose: true }));
ajv.addFormat('feed-date-time', { type: 'string', validate: (text: string) => isDateTime(text) && yearInRange(text) });
ajv.addFormat('feed-date', { type: 'string', validate: (text: string) => isDate(text) && yearInRange(text) });

const compiled = new WeakMap<object, ValidateFunction>();
const validatorOf = (schema: object) => {
  let validate = compiled.get(schema);
  if (!validate) compiled.set(schema, (validate = ajv.compile(schema)));
  return validate;
};

type Schema = Record<string, unknown>;

/**
 * The value with every property its schema does not name removed, at any
 * depth the schema describes (objects' `properties`, arrays' `items`, the
 * branches of a union). A fresh copy: what is not named is never read
 * again, however deep or strange it is. Pure.
 */
export function dropUnknown(schema: Schema, value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = schema.items as Schema | undefined;
    return items ? value.map((entry) => dropUnknown(items, entry)) : value;
  }
  if (value === null || typeof value !== 'object') return value;
  const branches = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (branches) {
    const objectBranch = branches.find((branch) => branch.type === 'object');
    return objectBranch ? dropUnknown(objectBranch, value) : value;
  }
  const properties = schema.properties as Record<string, Schema> | undefined;
  if (!properties) return value;
  const kept: Record<string, unknown> = {};
  for (const name of Object.keys(properties)) {
    if (Object.hasOwn(value, name)) kept[name] = dropUnknown(properties[name], (value as Record<string, unknown>)[name]);
  }
  return kept;
}

/** TAB, CR and LF: whitespace in a feed's free text (a cause written on two lines), not a control character. */
const LINE_BREAKS = /[\t\r\n]+/g;

/**
 * The value with each run of TAB, CR and LF in its strings made one space
 * (a cause written on two lines is announced on one), at any depth; other
 * control characters are left for the check to refuse. A fresh copy where
 * anything changed; property names are the schema's own. Pure.
 */
export function foldLineBreaks(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(LINE_BREAKS, ' ');
  if (Array.isArray(value)) return value.map(foldLineBreaks);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([name, entry]) => [name, foldLineBreaks(entry)]));
}

// Every C0 and C1 control, DEL, and the Unicode line and paragraph separators: feed text is single-line, and printable.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

function textProblem(text: string): { reason: 'control-character' | 'malformed-unicode'; char?: string } | null {
  if (!text.isWellFormed()) return { reason: 'malformed-unicode' };
  const match = CONTROL.exec(text);
  return match ? { reason: 'control-character', char: `U+${match[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}` } : null;
}

/** The first string (or property name) of a value that holds a character no output may carry, with where it is. */
export function badText(value: unknown): { path: string; reason: 'control-character' | 'malformed-unicode'; char?: string } | null {
  const found = firstStringProblem(value, '', textProblem);
  if (!found) return null;
  return { path: found.inPropertyName ? `${found.path} (a property name)` : found.path, ...found.problem };
}

/** An item's text problem as a rejection's reason and words, or null when its text is fine. */
export function textRejection(item: unknown): { reason: RejectReason; detail: string } | null {
  const text = badText(item);
  if (!text) return null;
  const where = text.path || '(the item)';
  return {
    reason: text.reason,
    detail: text.reason === 'malformed-unicode' ? `${where} holds a lone UTF-16 surrogate` : `${where} holds a control character (${text.char})`,
  };
}

const RANGE_KEYWORDS = new Set(['maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum']);

/** The reason and the words of the first rule an item breaks. */
function schemaRejection(error: ErrorObject): { reason: RejectReason; detail: string } {
  const where = error.instancePath || '(the item)';
  if (RANGE_KEYWORDS.has(error.keyword)) return { reason: 'number-out-of-range', detail: `${where} is out of range: it ${error.message}` };
  const format = (error.params as { format?: string }).format;
  if (error.keyword === 'format' && (format === 'feed-date-time' || format === 'feed-date')) {
    const text = String(error.data ?? '');
    const wellFormed = format === 'feed-date-time' ? isDateTime(text) : isDate(text);
    return wellFormed
      ? { reason: 'date-out-of-range', detail: `${where} is a date outside the years 1900–9999` }
      : { reason: 'invalid', detail: `${where} must be ${format === 'feed-date' ? 'a date (yyyy-mm-dd)' : 'a date and time with its offset (RFC 3339)'}` };
  }
  return { reason: 'invalid', detail: `${where} ${error.message ?? 'is invalid'}` };
}

/** An id as the feed sent it, safe to print (one line, well-formed, short), or null when there is none. */
export function printableId(raw: unknown): string | null {
  const id = raw !== null && typeof raw === 'object' ? (raw as { id?: unknown }).id : undefined;
  if (typeof id !== 'string' && typeof id !== 'number') return null;
  const text = String(id).toWellFormed().replace(new RegExp(CONTROL.source, 'g'), '\uFFFD');
  return text.length > 64 ? `${text.slice(0, 63)}…` : text;
}

/** The item's top-level properties declared with FeedGeometry. */
function geometryProperties(schema: Schema): string[] {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  return Object.keys(properties).filter((name) => isGeometrySchema(properties[name]!));
}

const isGeometrySchema = (schema: Schema): boolean =>
  schema[GEOMETRY_MARK] === true || ((schema.anyOf ?? schema.oneOf) as Schema[] | undefined)?.some((branch) => branch[GEOMETRY_MARK] === true) === true;

/**
 * Checks a parsed answer (pure): the answer's list, then each item alone.
 * An answer that is no object, has no list, or lists more than
 * `maxItems` fails as a whole; an item that breaks its schema, holds a
 * control character (TAB, CR and LF are spaces: foldLineBreaks) or
 * malformed Unicode anywhere, or repeats an id seen
 * before in the answer is left out, with its reason, and the rest pass. A
 * shape (FeedGeometry) that is no valid one is dropped with reason
 * `geometry`, its item kept.
 */
export function checkAnswer<T>(answer: FeedAnswer<T>, data: unknown): ValidationResult<CheckedAnswer<T>> {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return { ok: false, error: '(root) must be a JSON object' };
  const list = (data as Record<string, unknown>)[answer.list];
  if (!Array.isArray(list)) return { ok: false, error: `/${answer.list} must be an array` };
  if (list.length > answer.maxItems) return { ok: false, error: `/${answer.list} lists ${list.length} items, more than the ${answer.maxItems} allowed` };
  const validate = validatorOf(answer.item);
  const shapes = geometryProperties(answer.item as unknown as Schema);
  const items: T[] = [];
  const rejected: RejectedItem[] = [];
  const seen = new Set<string>();
  list.forEach((raw, index) => {
    const reject = (reason: RejectReason, detail: string): void => {
      rejected.push({ id: printableId(raw), index, reason, detail });
    };
    // Only what the schema names is read, and line breaks in its text are spaces.
    const item = foldLineBreaks(dropUnknown(answer.item as unknown as Schema, raw));
    // A bad shape is dropped and said, the item kept; a good one keeps only its type and coordinates.
    for (const name of shapes) {
      const shape = (item as Record<string, unknown> | null)?.[name];
      if (shape === undefined || shape === null) continue;
      const problem = geometryProblem(shape);
      if (problem) {
        delete (item as Record<string, unknown>)[name];
        reject('geometry', `/${name} ${problem}: the item is kept without its shape`);
      } else (item as Record<string, unknown>)[name] = cleanGeometry(shape as AreaGeometry);
    }
    const text = textRejection(item);
    if (text) {
      reject(text.reason, text.detail);
      return;
    }
    if (!validate(item)) {
      const { reason, detail } = schemaRejection(validate.errors![0]);
      reject(reason, detail);
      return;
    }
    const id = answer.id(item as T);
    if (seen.has(id)) {
      reject('duplicate-id', `the id came earlier in this answer`);
      return;
    }
    seen.add(id);
    items.push(item as T);
  });
  return { ok: true, value: { items, rejected } };
}
