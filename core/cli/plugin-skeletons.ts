/** `water-supply` → `WaterSupply`. */
export const pascal = (name: string) =>
  name
    .split('-')
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join('');

/** `water-supply` → `Water supply`. */
const words = (name: string) => name.replace(/-/g, ' ').replace(/^./, (first) => first.toUpperCase());

/**
 * A feed plugin that starts as it is: it polls `{<Section>__BaseUrl}/<name>`
 * for `{ "items": [{ "id", "title" }] }`, announces each new item once, and
 * keeps what it saw in core's item store (no table, no migration).
 */
export function feedSkeleton(name: string): Record<string, string> {
  const section = pascal(name);
  // Rename it: the catalog's id of the feed, dotted (`<organisation>.<feed>`).
  const feedId = `example.${name}`;
  return {
    'index.ts': `import {
  defineFeedAnswer,
  defineFeedMonitor,
  defineFeedPlugin,
  defineRenderer,
  feedMonitorSettings,
  FeedText,
  itemStateStore,
  sequenceId,
  singleLine,
  TimeZoneSetting,
  Type,
  type SectionsConfig,
  type Static,
} from '#plugin-api';

const FEED_ID = '${feedId}';

const config = {
  ${section}: Type.Object({
    ...feedMonitorSettings('${name} feed'),
    TimeZone: TimeZoneSetting('IANA zone in which notification texts show times.'),
  }),
};
type Config = SectionsConfig<typeof config>;

/** One item of GET {${section}__BaseUrl}/${name}: { "items": [{ "id": "…", "title": "…" }] }. */
const Item = Type.Object({ id: FeedText({ minLength: 1, maxLength: 100 }), title: FeedText({ maxLength: 200 }) });
type Item = Static<typeof Item>;
type Change = { readonly item: Item };

export const manifest = defineFeedPlugin({
  id: '${name}',
  apiVersion: 4,
  config,
  feed: {
    id: FEED_ID,
    displayName: '${words(name)}',
    eventTypes: ['ItemAdded'],
    filterFields: [{ id: 'keywords', label: 'Keywords', hint: 'Words to look for anywhere in an item.', match: 'contains' }],
  },
  monitor: defineFeedMonitor({
    settings: (c: Config) => c.${section},
    path: '${name}',
    answer: defineFeedAnswer({ list: 'items', item: Item }),
    store: itemStateStore<Item, { seen: true }, Change>({ feedId: FEED_ID, itemIdOf: (change) => change.item.id, next: () => ({ seen: true }) }),
    // DETECT (pure): an item never seen before is news.
    detect: (items, states) => items.filter((item) => states.get(item.id) === undefined).map((item) => ({ item })),
    // MAP (pure): one event per change; the same SourceKey and event type are delivered once.
    map: (changes) =>
      changes.map(({ item }) => ({
        feedId: FEED_ID,
        eventType: 'ItemAdded',
        sourceKey: item.id,
        itemKey: item.id,
        fields: { title: item.title },
        sourcePayload: item,
      })),
  }),
  renderers: [
    defineRenderer<Config, Item>(FEED_ID, ['ItemAdded'], (event) => ({
      title: \`New: \${singleLine(event.sourcePayload.title)}\`,
      body: singleLine(event.sourcePayload.title),
      sequenceId: sequenceId('${name}', event.sourceKey),
      tags: [],
      priority: 'Default',
    })),
  ],
  presentation: { eventTypes: { ItemAdded: { label: 'New items', hint: 'When the feed lists an item it did not list before.' } } },
  timeZone: (c) => c.${section}.TimeZone,
});
`,
  };
}

/**
 * A delivery target plugin that starts as it is: it posts each
 * notification as JSON to `{${'<Section>'}__BaseUrl}` with the subscriber's
 * destination, and says it is unavailable until that is set.
 */
export function targetSkeleton(name: string): Record<string, string> {
  const provider = pascal(name.replace(/^delivery-/, ''));
  const section = provider;
  return {
    'index.ts': `import { defineDeliveryPlugin, Errors, Type, type DeliveryOutcome, type DeliveryPluginContext, type DeliveryTarget } from '#plugin-api';

const config = {
  ${section}: Type.Object({
    BaseUrl: Type.Optional(Type.String({ format: 'uri', description: 'Where notifications are posted.' })),
  }),
};

/** A server's answer as an outcome (pure): 2xx delivered, 429 and 5xx retried, anything else final. */
export function outcomeOf(status: number): DeliveryOutcome {
  if (status >= 200 && status < 300) return { kind: 'delivered' };
  if (status === 429 || status >= 500) return { kind: 'retry', reason: \`answered \${status}\` };
  return { kind: 'failed', reason: \`refused (\${status})\` };
}

function createTarget(context: DeliveryPluginContext<typeof config>): DeliveryTarget {
  const baseUrl = context.config.${section}.BaseUrl;
  return {
    provider: '${provider}',
    startsActive: true,
    prepareDestination(requested) {
      const destination = requested?.trim();
      if (!destination) throw new Errors.InvalidField('body/delivery/destination is required for ${provider}');
      return destination;
    },
    subscribeUrl: () => null,
    unavailableReason: () => (baseUrl ? undefined : '${section}__BaseUrl is not set.'),
    deliver: (requests, signal) =>
      Promise.all(
        requests.map(async (request): Promise<DeliveryOutcome> => {
          if (!baseUrl) return { kind: 'retry', reason: '${section}__BaseUrl is not set' };
          try {
            const answer = await fetch(baseUrl, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ to: request.subscription.destination, title: request.rendered.title, body: request.rendered.body }),
              signal: AbortSignal.any([signal, AbortSignal.timeout(10_000)]),
            });
            await answer.body?.cancel();
            return outcomeOf(answer.status);
          } catch (error) {
            return { kind: 'retry', reason: \`unreachable: \${(error as Error).name}\` };
          }
        }),
      ),
  };
}

export const manifest = defineDeliveryPlugin({
  id: '${name}',
  apiVersion: 4,
  provider: '${provider}',
  displayName: '${provider}',
  destination: { required: true, description: 'Where ${provider} delivers (describe its format here).', label: '${provider} address' },
  config,
  setup: (context) => ({ target: createTarget(context) }),
});
`,
  };
}
