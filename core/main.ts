import { enableCompileCache } from 'node:module';
import { pluginRootsOf } from './paths.ts';

// Node keeps the compiled code of every module in its compile cache (under
// the OS temp folder, or NODE_COMPILE_CACHE), so a start after the first
// skips most of the compiling of fastify, knex, PGlite and friends. It only
// covers modules loaded after this call: hence the dynamic imports below.
enableCompileCache();
const { runService } = await import('./serve.ts');

// PLUGINS_DIR adds plugin folders to plugins/ (it decides the config schema, so it is no config key).
await runService(pluginRootsOf);
