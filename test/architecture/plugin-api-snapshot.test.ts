import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import * as pluginApi from '../../core/plugin-api/index.ts';
import { namesOfSnapshot, readApiSurface, SNAPSHOT_FILE, type ApiSurface } from '../../core/plugin-api/snapshot/api-surface.ts';

const HEADER = /^\/\/ The plugin API's declarations[^\n]*\n\n/;

/**
 * The plugin API is a public contract that only grows (contracts §14): the
 * recorded declarations (core/plugin-api/snapshot/) hold every export and
 * its type. Removing or renaming one fails here; any other change fails too
 * until it is reviewed and recorded with `npm run api:snapshot`, so the
 * snapshot's diff shows every change of the contract.
 */
describe('the plugin API only grows', () => {
  let surface: ApiSurface;
  let recorded: string;

  beforeAll(() => {
    surface = readApiSurface();
    recorded = readFileSync(SNAPSHOT_FILE, 'utf8').replace(HEADER, '');
  }, 60_000);

  it('every export recorded is still there, under its name', () => {
    const removed = namesOfSnapshot(recorded).filter((name) => !surface.names.includes(name));
    expect(removed, 'removed or renamed: deprecate instead (keep the old name working beside the new one)').toEqual([]);
  });

  it('the declarations are the recorded ones (a change that only grows the API is recorded with npm run api:snapshot)', () => {
    expect(surface.declarations).toBe(recorded);
  });

  it('every value a plugin can import is a recorded export', () => {
    expect(Object.keys(pluginApi).filter((name) => !surface.names.includes(name))).toEqual([]);
    expect(surface.names).toEqual(expect.arrayContaining(['defineFeedPlugin', 'DeliveryPluginManifest', 'FeedPluginContext', 'PLUGIN_API_VERSION', 'itemStateStore']));
  });

  it('the name scan sees a removal (a check that cannot fail is no check)', () => {
    // As the index would read with sequenceId no longer exported.
    const withoutOne = recorded.replace("export { occurrenceKey, sequenceId } from './event-keys.ts';", "export { occurrenceKey } from './event-keys.ts';");
    expect(withoutOne).not.toBe(recorded);
    expect(namesOfSnapshot(recorded)).toContain('sequenceId');
    expect(namesOfSnapshot(withoutOne)).not.toContain('sequenceId');
  });
});
