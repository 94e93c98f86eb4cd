import type { FilterableField, FilterFieldDefinition, FilterMatch, NotificationFeedDefinition } from '../plugin-api/feed-types.ts';
import type { Translate } from '../i18n/index.ts';

/**
 * The three fields core knew before feeds had words of their own: their
 * ids are filter properties of their own (`filter.feeders`), matched as
 * they always were; a feed of plugin API 1 or 2 names them by catalog
 * field (`filterableFields: ['Feeder']`), and gets these words.
 */
export const LEGACY_FILTER_FIELDS: Readonly<Record<'feeders' | 'locationKeywords' | 'keywords', { readonly field: FilterableField } & FilterFieldDefinition>> =
  {
    locationKeywords: {
      id: 'locationKeywords',
      field: 'Area',
      match: 'contains',
      label: 'Areas',
      hint: 'Comma-separated. Part of a name is enough. Leave empty for every area.',
    },
    feeders: { id: 'feeders', field: 'Feeder', match: 'equals', label: 'Feeders', hint: 'Comma-separated codes. Leave empty for every one.' },
    keywords: {
      id: 'keywords',
      field: 'Keywords',
      match: 'contains',
      label: 'Keywords',
      hint: 'Comma-separated words to look for anywhere in an alert. Leave empty to skip.',
    },
  };
export type LegacyFilterId = keyof typeof LEGACY_FILTER_FIELDS;
export const isLegacyFilterId = (id: string): id is LegacyFilterId => Object.hasOwn(LEGACY_FILTER_FIELDS, id);

/** Most filter fields a feed may declare, and the form of their ids. */
export const MAX_FILTER_FIELDS = 20;
export const FILTER_FIELD_ID = /^[a-z][A-Za-z0-9]{0,39}$/;

/** A filter field as clients read it: where its values go in a filter (`feeders`, `fields.route`), and its words in one language. */
export interface ResolvedFilterField {
  readonly id: string;
  readonly property: string;
  readonly label: string;
  readonly hint: string;
  readonly example: string;
  readonly match: FilterMatch;
}

/** The fields a feed is filtered by: as it declares them, or (plugin API 1 or 2) core's three it names, in their order. Pure. */
export function filterFieldsOf(feed: NotificationFeedDefinition): readonly FilterFieldDefinition[] {
  if (feed.filterFields) return feed.filterFields;
  const named = new Set(feed.filterableFields ?? []);
  return Object.values(LEGACY_FILTER_FIELDS)
    .filter((legacy) => named.has(legacy.field))
    .map(({ id, label, hint, match }) => ({ id, label, hint, match }));
}

/** Where a field's values go in a subscription's filter. */
export const filterPropertyOf = (id: string) => (isLegacyFilterId(id) ? id : `fields.${id}`);

/** A feed's fields in a language: its locales' `filter.<id>.label`, `.hint`, `.example` where they have them, else its declared words. Pure. */
export function resolveFilterFields(fields: readonly FilterFieldDefinition[], t?: Translate): ResolvedFilterField[] {
  const word = (key: string, fallback: string) => {
    const said = t?.(key);
    return said !== undefined && said !== key ? said : fallback;
  };
  return fields.map((field) => ({
    id: field.id,
    property: filterPropertyOf(field.id),
    label: word(`filter.${field.id}.label`, field.label),
    hint: word(`filter.${field.id}.hint`, field.hint ?? ''),
    example: word(`filter.${field.id}.example`, field.example ?? ''),
    match: field.match,
  }));
}

/** The catalog fields (`Feeder`, `Area`, `Keywords`) of a feed's filter fields, for the catalog's older `filterableFields`. */
export const catalogFieldsOf = (fields: readonly FilterFieldDefinition[]): FilterableField[] =>
  fields.flatMap((field) => (isLegacyFilterId(field.id) ? [LEGACY_FILTER_FIELDS[field.id].field] : []));

/** How one feed matches its own fields (`contains` for one not declared). */
export function fieldMatchOf(feed: NotificationFeedDefinition): (fieldId: string) => FilterMatch {
  const matches = new Map(filterFieldsOf(feed).map((field) => [field.id, field.match]));
  return (fieldId) => matches.get(fieldId) ?? 'contains';
}

/** How the feeds match their own fields: by feed and field id (`contains` for one not declared). */
export function filterMatchOf(feeds: readonly NotificationFeedDefinition[]): (feedId: string, fieldId: string) => FilterMatch {
  const matches = new Map(feeds.map((feed) => [feed.id, fieldMatchOf(feed)]));
  return (feedId, fieldId) => matches.get(feedId)?.(fieldId) ?? 'contains';
}
