import type { FastifyInstance } from 'fastify';
import type { DeliveryTarget } from '../plugin-api/delivery-types.ts';
import type { DeliveryPluginContext, DeliveryPluginParts, FeedPluginContext, PluginContext, PluginManifest } from '../plugin-api/manifest.ts';
import type { WorkerDefinition } from '../plugin-api/worker-types.ts';

/** A plugin's parts as core wires them, whichever way the plugin declared them. */
export interface WiredParts {
  readonly routes?: (app: FastifyInstance) => Promise<void> | void;
  /** Asked for when the workers start (onReady), as the manifest's workers(context) always was. */
  workers(): readonly WorkerDefinition[];
  readonly target?: DeliveryTarget;
}

/**
 * Runs a plugin's `setup(context)` once; a plugin written before it
 * (NPDEP005) has its manifest's routes, workers and createTarget bound to
 * the context instead, called as they always were.
 */
export async function wirePluginParts(manifest: PluginManifest, context: PluginContext): Promise<WiredParts> {
  if (manifest.setup) {
    // The registry pairs each manifest with the context of its kind.
    const parts: DeliveryPluginParts = await manifest.setup(context as FeedPluginContext & DeliveryPluginContext);
    return { routes: parts.routes, workers: () => parts.workers ?? [], target: parts.target };
  }
  const { routes, workers } = manifest;
  return {
    routes: routes && ((app) => routes(app, context as FeedPluginContext & DeliveryPluginContext)),
    workers: () => workers?.(context as FeedPluginContext & DeliveryPluginContext) ?? [],
    target: manifest.kind === 'delivery' && manifest.createTarget ? await manifest.createTarget(context as DeliveryPluginContext) : undefined,
  };
}
