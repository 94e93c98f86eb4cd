import type { FilterMatch, NotificationEvent } from '../plugin-api/feed-types.ts';
import { placeReaches, type Place } from '../places/index.ts';

/** A subscription's filter as clients send it and as stored in filter_json. */
export interface SubscriptionFilter {
  feeders?: readonly string[];
  locationKeywords?: readonly string[];
  keywords?: readonly string[];
  eventTypes?: readonly string[];
  places?: readonly Place[];
  /** Values per filter field the feed declares (`{ route: ['12', '138'] }`). */
  fields?: Readonly<Record<string, readonly string[]>>;
}

/** Whether a filter's "where" is its places alone: such a subscription can match only an event whose shape reaches one (the cell index then finds it). */
export const wherePlacesOnly = (filter: SubscriptionFilter | null | undefined) =>
  (filter?.places?.length ?? 0) > 0 && (filter?.locationKeywords?.length ?? 0) === 0;

export type CompiledFilter = (event: NotificationEvent) => boolean;

/** One criterion a filter sets: its name (`feeders`, `where`, `fields.route`) and its test. */
export interface FilterCriterion {
  readonly name: string;
  readonly test: CompiledFilter;
}

const normalise = (values: readonly string[] | undefined) => (values ?? []).map((value) => value.trim().toLowerCase()).filter((value) => value !== '');

const splitList = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter(Boolean);

/**
 * The criteria a filter sets, each named as the trace names it (`eventTypes`,
 * `feeders`, `where`, `keywords`, `fields.<id>`), each a pure predicate:
 * AND across them, any-of within one list, case-insensitive; an empty or
 * missing list sets no criterion, so an empty filter sets none.
 * - feeders: equals Fields.feeder or one of the comma-separated Fields.feeders;
 * - where: locationKeywords, a substring of Fields.area or Fields.areas,
 *   and places, the event's shape within a place's radius (an event
 *   without a shape matches no place); with both set, either one is enough;
 * - keywords: a substring of all Fields values joined;
 * - eventTypes: contains the event's type (exact: types are identifiers);
 * - fields.<id>: a field the feed declares, against the event's
 *   `fields.<id>`: `equals` one of its comma-separated values, or
 *   `contains` (a part of its text), as the feed's `match` says (`matchOf`);
 *   an event without the field matches no value.
 * Matching and its explanation are both made of these: one copy of the rules.
 */
export function filterCriteria(filter: SubscriptionFilter | null | undefined, matchOf: (fieldId: string) => FilterMatch = () => 'contains'): FilterCriterion[] {
  const feeders = new Set(normalise(filter?.feeders));
  const locations = normalise(filter?.locationKeywords);
  const keywords = normalise(filter?.keywords);
  const eventTypes = new Set((filter?.eventTypes ?? []).map((type) => type.trim()));
  const criteria: FilterCriterion[] = [];
  if (eventTypes.size > 0) criteria.push({ name: 'eventTypes', test: (event) => eventTypes.has(event.eventType) });
  if (feeders.size > 0) {
    criteria.push({
      name: 'feeders',
      test: (event) => {
        const own = event.fields.feeder?.trim().toLowerCase();
        return (own !== undefined && feeders.has(own)) || splitList(event.fields.feeders).some((feeder) => feeders.has(feeder));
      },
    });
  }
  const places = filter?.places ?? [];
  const byName = (event: NotificationEvent) => {
    const text = `${event.fields.area ?? ''}\n${event.fields.areas ?? ''}`.toLowerCase();
    return locations.some((location) => text.includes(location));
  };
  const byPlace = (event: NotificationEvent) => event.geometry !== undefined && places.some((place) => placeReaches(place, event.geometry!));
  if (locations.length > 0 && places.length > 0) criteria.push({ name: 'where', test: (event) => byName(event) || byPlace(event) });
  else if (locations.length > 0) criteria.push({ name: 'where', test: byName });
  else if (places.length > 0) criteria.push({ name: 'where', test: byPlace });
  if (keywords.length > 0) {
    criteria.push({
      name: 'keywords',
      test: (event) => {
        const text = Object.values(event.fields).join('\n').toLowerCase();
        return keywords.some((keyword) => text.includes(keyword));
      },
    });
  }
  for (const [id, values] of Object.entries(filter?.fields ?? {})) {
    const wanted = normalise(values);
    if (wanted.length === 0) continue;
    if (matchOf(id) === 'equals') {
      const set = new Set(wanted);
      criteria.push({ name: `fields.${id}`, test: (event) => splitList(event.fields[id]).some((value) => set.has(value)) });
    } else {
      criteria.push({
        name: `fields.${id}`,
        test: (event) => {
          const text = (event.fields[id] ?? '').toLowerCase();
          return text !== '' && wanted.some((value) => text.includes(value));
        },
      });
    }
  }
  return criteria;
}

/** Compiles a filter once into a pure predicate: every criterion it sets holds (an empty filter matches everything). */
export function compileFilter(filter: SubscriptionFilter | null | undefined, matchOf: (fieldId: string) => FilterMatch = () => 'contains'): CompiledFilter {
  const checks = filterCriteria(filter, matchOf).map((criterion) => criterion.test);
  if (checks.length === 0) return () => true;
  return (event) => checks.every((check) => check(event));
}

/** Whether an event matches a filter, and if not, the first criterion it failed (the trace's "why not"). */
export function explainFilter(
  filter: SubscriptionFilter | null | undefined,
  matchOf: (fieldId: string) => FilterMatch = () => 'contains',
): (event: NotificationEvent) => { readonly matched: true } | { readonly matched: false; readonly criterion: string } {
  const criteria = filterCriteria(filter, matchOf);
  return (event) => {
    const failed = criteria.find((criterion) => !criterion.test(event));
    return failed ? { matched: false, criterion: failed.name } : { matched: true };
  };
}

/** How each feed matches its own filter fields (`equals` or `contains`), by feed and field id. */
export type FilterMatchOf = (feedId: string, fieldId: string) => FilterMatch;

/**
 * Memoises compiled filters by feed and JSON text: many subscriptions
 * share a filter. Fan-out reads the stored filter as text
 * (`filter_json::text`), so a page of subscriptions parses only the
 * filters it has not seen yet.
 */
export class FilterCache {
  readonly #compiled = new Map<string, CompiledFilter>();
  readonly #matchOf: FilterMatchOf;

  constructor(matchOf: FilterMatchOf = () => 'contains') {
    this.#matchOf = matchOf;
  }

  get(feedId: string, filter: SubscriptionFilter | null | undefined): CompiledFilter {
    return this.ofText(feedId, JSON.stringify(filter ?? {}));
  }

  /** Whether an event matches a subscription's filter to `feedId`, and if not, the criterion it failed (the trace). */
  explain(feedId: string, filter: SubscriptionFilter | null | undefined): ReturnType<typeof explainFilter> {
    return explainFilter(filter, (fieldId) => this.#matchOf(feedId, fieldId));
  }

  /** The compiled filter of a stored filter's JSON text (null: no filter) of a subscription to `feedId`. */
  ofText(feedId: string, text: string | null): CompiledFilter {
    const key = `${feedId}\u0000${text ?? '{}'}`;
    let compiled = this.#compiled.get(key);
    if (!compiled) {
      compiled = compileFilter(JSON.parse(text ?? '{}') as SubscriptionFilter | null, (fieldId) => this.#matchOf(feedId, fieldId));
      if (this.#compiled.size < 10_000) this.#compiled.set(key, compiled);
    }
    return compiled;
  }
}
