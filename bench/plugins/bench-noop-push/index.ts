import { defineDeliveryPlugin, Errors, PLUGIN_API_VERSION } from '#plugin-api';

/** A Push target that delivers nothing and answers "delivered": measures the pipeline, not a push server. */
export const manifest = defineDeliveryPlugin({
  id: 'bench-noop-push',
  apiVersion: PLUGIN_API_VERSION,
  provider: 'Push',
  config: {},
  createTarget: () => ({
    provider: 'Push',
    startsActive: true,
    prepareDestination(requested, { scope }) {
      if (scope !== 'System' || !requested) throw new Errors.InvalidField('bench target: system topics only');
      return requested;
    },
    subscribeUrl: () => null,
    deliver: async (requests) => requests.map(() => ({ kind: 'delivered' as const })),
  }),
});
