import { fileURLToPath } from 'node:url';

/** The project folder, whatever the working directory the process was started from. */
export const projectRoot = fileURLToPath(new URL('..', import.meta.url));
export const defaultPluginsDir = fileURLToPath(new URL('../plugins', import.meta.url));
export const coreMigrationsDir = fileURLToPath(new URL('../migrations', import.meta.url));
