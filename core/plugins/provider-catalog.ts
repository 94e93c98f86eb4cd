import type { DeliveryTarget } from '../plugin-api/delivery-types.ts';
import type { DeliveryPluginManifest } from '../plugin-api/manifest.ts';
import { createTranslator, type MessageCatalog } from '../plugin-api/messages.ts';
import { UNDESCRIBED_DESTINATION, type ProviderInfo } from '../plugin-api/target-presentation.ts';

/**
 * The installed delivery targets as clients and the pages see them, in
 * plugin order: each from its manifest (display name, destination, words
 * while a subscription waits for confirmation) and its built target (can it
 * deliver now, and if not, why), its words for people in `language` where
 * the target's locales have them (`target.displayName`,
 * `destination.label`, `.hint`, `.placeholder`, `confirmation.heading`,
 * `.text`, `subscribeLinkLabel`, `shownOnce.<field>`). Pure.
 */
export function providerCatalog(
  deliveries: readonly DeliveryPluginManifest[],
  targets: ReadonlyMap<string, DeliveryTarget>,
  language?: string,
  messagesOf: (pluginId: string) => MessageCatalog | undefined = () => undefined,
): ProviderInfo[] {
  return deliveries.map((manifest) => {
    const target = targets.get(manifest.provider);
    const reason = target ? target.unavailableReason?.() : `The ${manifest.id} plugin builds no delivery target yet: its provider cannot be chosen.`;
    const said = wordsOf(messagesOf(manifest.id), language);
    const destination = manifest.destination ?? UNDESCRIBED_DESTINATION;
    const confirmation = manifest.confirmation;
    return {
      provider: manifest.provider,
      displayName: said('target.displayName') ?? manifest.displayName ?? manifest.provider,
      destination: {
        ...destination,
        ...optional('label', said('destination.label') ?? destination.label),
        ...optional('hint', said('destination.hint') ?? destination.hint),
        ...optional('placeholder', said('destination.placeholder') ?? destination.placeholder),
      },
      available: reason === undefined,
      unavailableReason: reason ?? null,
      confirmation: confirmation
        ? {
            ...confirmation,
            heading: said('confirmation.heading') ?? confirmation.heading,
            // {destination} stays a placeholder the page fills.
            text: said('confirmation.text', { destination: '{destination}' }) ?? confirmation.text,
          }
        : null,
      subscribeLinkLabel: said('subscribeLinkLabel') ?? manifest.subscribeLinkLabel ?? null,
      shownOnce: Object.entries(manifest.createdProperties ?? {}).map(([field, schema]) => ({
        field,
        description:
          said(`shownOnce.${field}`) ??
          (typeof (schema as { description?: unknown }).description === 'string' ? (schema as { description: string }).description : field),
      })),
      languages: target?.languages?.() ?? null,
    };
  });
}

/** A property only when it has a value: the answer's schema has no `undefined`. */
const optional = <K extends string>(key: K, value: string | undefined) => (value === undefined ? {} : ({ [key]: value } as Record<K, string>));

/**
 * A target's own word for a key in a language (its `locales/`: English
 * where that language lacks it), or undefined when its locales have none:
 * then the manifest's (English) word stands.
 */
function wordsOf(messages: MessageCatalog | undefined, language: string | undefined) {
  if (!messages || messages.size === 0) return () => undefined;
  const t = createTranslator(messages, language);
  return (key: string, values?: Record<string, string>): string | undefined => {
    const said = t(key, values);
    return said === key ? undefined : said;
  };
}
