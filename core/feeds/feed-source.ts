/**
 * Where a feed polls and with which key: its own
 * `<Feed>__BaseUrl` and `<Feed>__ApiKey`; only a feed whose monitor says
 * `sharedSource` (the shipped utility feeds, which share one API) falls
 * back to `ExternalProvider__BaseUrl` with `ExternalProvider__ApiKey`, and
 * then only as a pair: a feed with a base address of its own never gets
 * the shared key, so no feed ever sends another feed's key. Pure.
 */
export interface FeedSource {
  /** The address the feed's paths are under; null: none set, the poll fails naming `missing`. */
  readonly baseUrl: string | null;
  /** Sent as X-Api-Key; null: no key is sent. */
  readonly apiKey: string | null;
  /** The keys to set, in words, when there is no address. */
  readonly missing: string;
}

export function feedSource(
  section: string,
  own: { readonly BaseUrl?: string; readonly ApiKey?: string },
  shared: { readonly BaseUrl?: string; readonly ApiKey?: string } | null,
): FeedSource {
  const missing = shared ? `${section}__BaseUrl (or ExternalProvider__BaseUrl)` : `${section}__BaseUrl`;
  if (own.BaseUrl) return { baseUrl: own.BaseUrl, apiKey: own.ApiKey || null, missing };
  if (shared?.BaseUrl) return { baseUrl: shared.BaseUrl, apiKey: own.ApiKey || shared.ApiKey || null, missing };
  return { baseUrl: null, apiKey: own.ApiKey || null, missing };
}

/** The name of the config section a monitor's settings are (`PowerOutages`): the one whose value they are. */
export function monitorSection(config: Readonly<Record<string, unknown>>, settings: unknown): string {
  for (const [name, value] of Object.entries(config)) if (value === settings) return name.replaceAll(':', '__');
  return 'Feed';
}
