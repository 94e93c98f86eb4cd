import type { FeedSource } from './feed-source.ts';
import type { EndpointRequest } from './endpoint-types.ts';
import type { CheckedAnswer, RejectedItem } from '../plugin-api/feed-answer.ts';
import type { AnyFeedMonitor } from '../plugin-api/feed-monitor.ts';
import { checkAnswer, printableId, textRejection } from '../plugin-api/answer-check.ts';

/** A feed answered, but not with what its plugin expects: the message names the feed and the rule, never the body. */
class FeedAnswerError extends Error {
  override readonly name = 'FeedAnswerError';
}

/**
 * JSON.parse, then the monitor's check: item by item with its `answer`,
 * or as a whole with its older `parse` (whose items are still screened for
 * text no output may carry). Throws FeedAnswerError when the answer as a
 * whole is unusable.
 */
export function parseJsonAnswer(key: string, body: string, monitor: AnyFeedMonitor): CheckedAnswer<unknown> {
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch {
    throw new FeedAnswerError(`${key}: the answer is not JSON`);
  }
  const result = monitor.answer ? checkAnswer(monitor.answer, data) : monitor.parse!(data);
  if (!result.ok) throw new FeedAnswerError(`${key}: the answer has an unexpected shape: ${result.error}`);
  if (monitor.answer) return result.value as CheckedAnswer<unknown>;
  return screened(result.value as readonly unknown[]);
}

/** Items of a whole-answer `parse`, less those holding a control character or malformed Unicode. */
function screened(list: readonly unknown[]): CheckedAnswer<unknown> {
  const items: unknown[] = [];
  const rejected: RejectedItem[] = [];
  list.forEach((item, index) => {
    const text = textRejection(item);
    if (text) rejected.push({ id: printableId(item), index, ...text });
    else items.push(item);
  });
  return { items, rejected };
}

/** `{BaseUrl}/<path>` with its X-Api-Key (the feed's own source, feed-source.ts), as the feed API wants. */
export function feedRequest(
  source: FeedSource,
  key: string,
  path: string,
  timeoutSeconds: number,
  signal?: AbortSignal,
  maxBodyBytes?: number,
): EndpointRequest {
  if (!source.baseUrl) throw new Error(`${source.missing} is not set: ${key} cannot be polled`);
  return {
    key,
    url: `${source.baseUrl.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`,
    headers: source.apiKey ? { 'x-api-key': source.apiKey } : {},
    timeoutMs: timeoutSeconds * 1000,
    ...(maxBodyBytes === undefined ? {} : { maxBodyBytes }),
    signal,
  };
}
