import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../paths.ts';
import { readApiSurface, SNAPSHOT_FILE } from '../plugin-api/snapshot/api-surface.ts';

/**
 * `npm run api:snapshot`: records the plugin API as it is now. Run it after
 * a reviewed change that only grows the API (a new export, a new optional
 * property); the snapshot test fails until it is run, and the diff of the
 * snapshot file shows the change for review.
 */
const surface = readApiSurface();
writeFileSync(SNAPSHOT_FILE, `// The plugin API's declarations, recorded by npm run api:snapshot. Do not edit by hand.\n\n${surface.declarations}`);
process.stdout.write(`recorded ${surface.names.length} exports in ${path.relative(projectRoot, SNAPSHOT_FILE)}\n`);
