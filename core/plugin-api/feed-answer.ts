import type { Static, TObject } from 'typebox';
import Type from 'typebox';
import type { AreaGeometry } from './shape-types.ts';

/**
 * A feed's answer, checked item by item: the answer is untrusted input, and
 * one item the service cannot store must not keep the others from being
 * announced. Core reads the list out of the answer, drops every property
 * the item schema does not name (at any depth) before anything else, then
 * leaves out, alone, each item that breaks the schema, holds a character
 * no output may carry, or repeats an id already seen in the answer.
 */
export interface FeedAnswerSpec<S extends TObject> {
  /** The property of the answer's JSON object that lists the items: `outages`. */
  readonly list: string;
  /** The schema of one item. Build text, dates and counts with FeedText, FeedDateTime, FeedDate and FeedCount. */
  readonly item: S;
  /** Most items one answer may list; past it the whole poll fails. Default 20,000. */
  readonly maxItems?: number;
  /** The id of a checked item, unique within one answer. Default: its `id` property. */
  readonly id?: (item: Static<S>) => string;
}

/** Why an item was left out: the `reason` label of notification_feed_items_rejected_total. */
export const REJECT_REASONS = [
  'invalid',
  'control-character',
  'malformed-unicode',
  'number-out-of-range',
  'date-out-of-range',
  'duplicate-id',
  'geometry',
] as const;
export type RejectReason = (typeof REJECT_REASONS)[number];

/** An item left out of an answer (or, with reason `geometry`, kept without the shape it gave). */
export interface RejectedItem {
  /** Its id as the feed sent it, made printable and cut short; null when it has none. */
  readonly id: string | null;
  /** Its place in the answer's list, from 0. */
  readonly index: number;
  readonly reason: RejectReason;
  /** What was wrong, in words, naming the property: `/customersAffected must be <= 2147483647`. */
  readonly detail: string;
}

export interface CheckedAnswer<T> {
  /** The items that passed, in the answer's order. */
  readonly items: readonly T[];
  readonly rejected: readonly RejectedItem[];
}

const ANSWER = Symbol.for('notification-pipeline.feed-answer');

/** What `defineFeedAnswer` returns: core checks answers with it (the monitor's `answer`). */
export interface FeedAnswer<T> {
  readonly list: string;
  readonly item: TObject;
  readonly maxItems: number;
  id(item: T): string;
}

/** Declares how a feed's answer lists its items (inert: core does the checking). */
export function defineFeedAnswer<S extends TObject>(spec: FeedAnswerSpec<S>): FeedAnswer<Static<S>> {
  const answer: FeedAnswer<Static<S>> = {
    list: spec.list,
    item: spec.item,
    maxItems: spec.maxItems ?? 20_000,
    id: spec.id ?? ((item) => String((item as { id?: unknown }).id)),
  };
  return Object.freeze(Object.defineProperty(answer, ANSWER, { value: true, enumerable: false }));
}

export function isFeedAnswer(value: unknown): value is FeedAnswer<unknown> {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[ANSWER] === true;
}

/**
 * A line of feed text: no control characters and no line breaks (core
 * leaves out an item holding one, in any string), at most `maxLength`.
 */
export function FeedText(options: { minLength?: number; maxLength?: number; description?: string } = {}) {
  return Type.String({
    minLength: options.minLength ?? 0,
    maxLength: options.maxLength ?? 1000,
    ...(options.description ? { description: options.description } : {}),
  });
}

/** An RFC 3339 date and time with its offset, in the years 1900–9999 (what PostgreSQL and every output can hold). */
export function FeedDateTime(options: { description?: string } = {}) {
  return Type.String({ format: 'feed-date-time', ...options });
}

/** A date `yyyy-mm-dd`, in the years 1900–9999. */
export function FeedDate(options: { description?: string } = {}) {
  return Type.String({ format: 'feed-date', ...options });
}

/**
 * An item's shape: an RFC 7946 GeoJSON Polygon or MultiPolygon in WGS 84
 * (`[lon, lat]`), closed rings, at most 10,000 positions. A shape that is
 * none of these is dropped, and the item is kept without it (reason
 * `geometry`); only its type and coordinates are kept.
 */
export function FeedGeometry(options: { description?: string } = {}) {
  return Type.Unsafe<AreaGeometry>({ type: 'object', [GEOMETRY_MARK]: true, ...options });
}

/** The mark of a FeedGeometry property in an item's schema (core checks such a property apart). */
export const GEOMETRY_MARK = 'x-feed-geometry';

/** A count from 0 to 2,147,483,647 (a PostgreSQL integer). */
export function FeedCount(options: { description?: string } = {}) {
  return Type.Integer({ minimum: 0, maximum: 2_147_483_647, ...options });
}
