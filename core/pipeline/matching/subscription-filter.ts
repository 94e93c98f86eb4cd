import type { FilterableField, NotificationEvent } from '../../plugin-api/feed-types.ts';

/** A subscription's filter as clients send it and as stored in filter_json. */
export interface SubscriptionFilter {
  feeders?: readonly string[];
  locationKeywords?: readonly string[];
  keywords?: readonly string[];
  eventTypes?: readonly string[];
}

/** Which catalog field each filter property needs (eventTypes needs none). */
export const FILTER_FIELD_OF: Readonly<Record<keyof SubscriptionFilter, FilterableField | null>> = {
  feeders: 'Feeder',
  locationKeywords: 'Area',
  keywords: 'Keywords',
  eventTypes: null,
};

export type CompiledFilter = (event: NotificationEvent) => boolean;

const normalise = (values: readonly string[] | undefined) =>
  (values ?? []).map((value) => value.trim().toLowerCase()).filter((value) => value !== '');

const splitList = (value: string | undefined) => (value ?? '').split(',').map((part) => part.trim().toLowerCase()).filter(Boolean);

/**
 * Compiles a filter once into a pure predicate (contracts §4): AND across
 * the criteria it sets, any-of within one list, case-insensitive; an empty
 * or missing list sets no criterion, so an empty filter matches everything.
 * - feeders: equals Fields.feeder or one of the comma-separated Fields.feeders;
 * - locationKeywords: a substring of Fields.area or Fields.areas;
 * - keywords: a substring of all Fields values joined;
 * - eventTypes: contains the event's type (exact: types are identifiers).
 */
export function compileFilter(filter: SubscriptionFilter | null | undefined): CompiledFilter {
  const feeders = new Set(normalise(filter?.feeders));
  const locations = normalise(filter?.locationKeywords);
  const keywords = normalise(filter?.keywords);
  const eventTypes = new Set((filter?.eventTypes ?? []).map((type) => type.trim()));
  const checks: CompiledFilter[] = [];
  if (eventTypes.size > 0) checks.push((event) => eventTypes.has(event.eventType));
  if (feeders.size > 0) {
    checks.push((event) => {
      const own = event.fields.feeder?.trim().toLowerCase();
      return (own !== undefined && feeders.has(own)) || splitList(event.fields.feeders).some((feeder) => feeders.has(feeder));
    });
  }
  if (locations.length > 0) {
    checks.push((event) => {
      const text = `${event.fields.area ?? ''}\n${event.fields.areas ?? ''}`.toLowerCase();
      return locations.some((location) => text.includes(location));
    });
  }
  if (keywords.length > 0) {
    checks.push((event) => {
      const text = Object.values(event.fields).join('\n').toLowerCase();
      return keywords.some((keyword) => text.includes(keyword));
    });
  }
  if (checks.length === 0) return () => true;
  return (event) => checks.every((check) => check(event));
}

/**
 * Memoises compiled filters by their JSON text: many subscriptions share a
 * filter. Fan-out reads the stored filter as text (`filter_json::text`), so
 * a page of subscriptions parses only the filters it has not seen yet.
 */
export class FilterCache {
  readonly #compiled = new Map<string, CompiledFilter>();

  get(filter: SubscriptionFilter | null | undefined): CompiledFilter {
    return this.ofText(JSON.stringify(filter ?? {}));
  }

  /** The compiled filter of a stored filter's JSON text (null: no filter). */
  ofText(text: string | null): CompiledFilter {
    const key = text ?? '{}';
    let compiled = this.#compiled.get(key);
    if (!compiled) {
      compiled = compileFilter(JSON.parse(key) as SubscriptionFilter | null);
      if (this.#compiled.size < 10_000) this.#compiled.set(key, compiled);
    }
    return compiled;
  }
}
