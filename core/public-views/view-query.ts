import Type, { type Static } from 'typebox';
import { Errors } from '../errors.ts';
import type { SubscriptionFilter } from '../matching/index.ts';

const MAX_TERMS = 50;
const MAX_TERM_LENGTH = 100;
const List = (description: string) => Type.Optional(Type.String({ maxLength: 2000, description }));

/** `?areas=Kandy,Gampola&feeders=F3`: the optional filters of the public calendar and Atom feed. */
export const ViewFilterQuery = Type.Object({
  areas: List("Comma-separated area keywords, matched like a subscription's locationKeywords (a substring of the areas, case-insensitive)."),
  feeders: List("Comma-separated feeders, matched like a subscription's feeders (equal, case-insensitive)."),
});
export type ViewFilterQuery = Static<typeof ViewFilterQuery>;

// Control characters and lone surrogates are no part of a keyword; they are refused, not matched.
const CONTROL = /[\u0000-\u001F\u007F]/;

function terms(name: string, value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  if (CONTROL.test(value) || !value.isWellFormed()) throw new Errors.InvalidField(`querystring/${name} must not hold control characters or lone surrogates`);
  const list = value
    .split(',')
    .map((term) => term.trim())
    .filter((term) => term !== '');
  if (list.length > MAX_TERMS) throw new Errors.InvalidField(`querystring/${name} must not list more than ${MAX_TERMS} values`);
  const long = list.find((term) => term.length > MAX_TERM_LENGTH);
  if (long !== undefined) throw new Errors.InvalidField(`querystring/${name}: "${long.slice(0, 20)}…" is longer than ${MAX_TERM_LENGTH} characters`);
  return list.length > 0 ? list : undefined;
}

/** The query as a subscription filter, so the views match exactly as deliveries do. */
export function filterFromQuery(query: ViewFilterQuery): SubscriptionFilter {
  const locationKeywords = terms('areas', query.areas);
  const feeders = terms('feeders', query.feeders);
  return { ...(locationKeywords ? { locationKeywords } : {}), ...(feeders ? { feeders } : {}) };
}

/** The filter written back as a query string (for self links), in a stable order. */
export function queryOfFilter(filter: SubscriptionFilter): string {
  const params = new URLSearchParams();
  if (filter.locationKeywords?.length) params.set('areas', filter.locationKeywords.join(','));
  if (filter.feeders?.length) params.set('feeders', filter.feeders.join(','));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Links and names under PublicBaseUrl. */
export interface PublicOrigin {
  /** Host name of PublicBaseUrl (no port): calendar UIDs, the CAP sender, tag URIs. */
  readonly hostname: string;
  /** An absolute URL of a path of the service. */
  url(path: string): string;
}

export function publicOrigin(publicBaseUrl: string): PublicOrigin {
  const base = publicBaseUrl.replace(/\/+$/, '');
  return { hostname: new URL(base).hostname, url: (path) => `${base}${path}` };
}
