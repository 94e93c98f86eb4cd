import { Errors } from './errors.ts';
import type { NotificationEvent, NotificationRenderer, RenderContext, RenderedNotification } from './feed-types.ts';

/**
 * Builds a renderer for some event types of one feed. Given a type it does
 * not handle it raises NP_UNSUPPORTED_EVENT_TYPE, as the spec asks.
 * `TPayload` types the events' `sourcePayload` (what the feed's MAP puts
 * there): `defineRenderer<Config, WaterNotice>(…)`.
 */
export function defineRenderer<TConfig, TPayload = unknown>(
  feedId: string,
  eventTypes: readonly string[],
  render: (event: NotificationEvent<TPayload>, context: RenderContext<TConfig>) => RenderedNotification,
): NotificationRenderer<TConfig> {
  const handled = new Set(eventTypes);
  return Object.freeze({
    eventTypes: Object.freeze([...eventTypes]),
    canRender: (eventType: string) => handled.has(eventType),
    render(event: NotificationEvent, context: RenderContext<TConfig>) {
      if (!handled.has(event.eventType)) throw new Errors.UnsupportedEventType(feedId, event.eventType);
      return render(event as NotificationEvent<TPayload>, context);
    },
  });
}
