import type { Knex } from 'knex';
import type { EndpointChecker, EndpointRequest } from './endpoint-types.ts';
import type { ValidationResult } from './validation.ts';

export type JsonFeedPoll<T> =
  | { readonly changed: false }
  | { readonly changed: true; readonly value: T; markSeen(trx: Knex.Transaction): Promise<void> };

/**
 * POLL of a JSON feed: a conditional request through the endpoint checker,
 * then JSON parsing and validation. An unchanged answer stops here; a bad
 * one (HTTP error, timeout, not JSON, wrong shape) throws an error naming
 * the feed and the rule, never the body, and nothing is marked seen.
 */
export async function pollJsonFeed<T>(
  endpoints: EndpointChecker,
  request: EndpointRequest,
  validate: (data: unknown) => ValidationResult<T>,
): Promise<JsonFeedPoll<T>> {
  const check = await endpoints.check(request);
  if (!check.changed) return { changed: false };
  let parsed: unknown;
  try {
    parsed = JSON.parse(check.body);
  } catch {
    throw new Error(`${request.key}: the answer is not JSON`);
  }
  const result = validate(parsed);
  if (!result.ok) throw new Error(`${request.key}: the answer has an unexpected shape: ${result.error}`);
  return { changed: true, value: result.value, markSeen: check.markSeen };
}

/** `{ExternalProvider__BaseUrl}/<path>` with its X-Api-Key, as the utility's feed API wants (contracts §7). */
export function externalProviderRequest(
  provider: { readonly BaseUrl?: string; readonly ApiKey?: string },
  key: string,
  path: string,
  timeoutSeconds: number,
  signal?: AbortSignal,
): EndpointRequest {
  if (!provider.BaseUrl) throw new Error(`ExternalProvider__BaseUrl is not set: ${key} cannot be polled`);
  return {
    key,
    url: `${provider.BaseUrl.replace(/\/+$/, '')}/${path}`,
    headers: provider.ApiKey ? { 'x-api-key': provider.ApiKey } : {},
    timeoutMs: timeoutSeconds * 1000,
    signal,
  };
}
