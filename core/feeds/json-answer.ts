import type { EndpointRequest } from './endpoint-types.ts';
import type { ValidationResult } from '../plugin-api/validation.ts';

/** A feed answered, but not with what its plugin expects: the message names the feed and the rule, never the body. */
class FeedAnswerError extends Error {
  override readonly name = 'FeedAnswerError';
}

/** JSON.parse, then the plugin's check; throws FeedAnswerError. */
export function parseJsonAnswer<T>(key: string, body: string, parse: (data: unknown) => ValidationResult<T>): T {
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch {
    throw new FeedAnswerError(`${key}: the answer is not JSON`);
  }
  const result = parse(data);
  if (!result.ok) throw new FeedAnswerError(`${key}: the answer has an unexpected shape: ${result.error}`);
  return result.value;
}

/** `{ExternalProvider__BaseUrl}/<path>` with its X-Api-Key, as the utility's feed API wants. */
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
    url: `${provider.BaseUrl.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`,
    headers: provider.ApiKey ? { 'x-api-key': provider.ApiKey } : {},
    timeoutMs: timeoutSeconds * 1000,
    signal,
  };
}
