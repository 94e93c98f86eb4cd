import type { DeliveryTarget } from '../plugin-api/delivery-types.ts';
import type { DeliveryPluginManifest } from '../plugin-api/manifest.ts';
import { UNDESCRIBED_DESTINATION, type ProviderInfo } from '../plugin-api/target-presentation.ts';

/**
 * The installed delivery targets as clients and the pages see them, in
 * plugin order: each from its manifest (display name, destination, words
 * while a subscription waits for confirmation) and its built target (can it
 * deliver now, and if not, why).
 */
export function providerCatalog(deliveries: readonly DeliveryPluginManifest[], targets: ReadonlyMap<string, DeliveryTarget>): ProviderInfo[] {
  return deliveries.map((manifest) => {
    const target = targets.get(manifest.provider);
    const reason = target ? target.unavailableReason?.() : `The ${manifest.id} plugin builds no delivery target yet: its provider cannot be chosen.`;
    return {
      provider: manifest.provider,
      displayName: manifest.displayName ?? manifest.provider,
      destination: manifest.destination ?? UNDESCRIBED_DESTINATION,
      available: reason === undefined,
      unavailableReason: reason ?? null,
      confirmation: manifest.confirmation ?? null,
      subscribeLinkLabel: manifest.subscribeLinkLabel ?? null,
      shownOnce: Object.entries(manifest.createdProperties ?? {}).map(([field, schema]) => ({
        field,
        description: typeof (schema as { description?: unknown }).description === 'string' ? (schema as { description: string }).description : field,
      })),
    };
  });
}
