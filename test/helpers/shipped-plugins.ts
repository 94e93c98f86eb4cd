import { cpSync, existsSync, mkdtempSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../core/paths.ts';
import { tmpRoot } from './databases.ts';

/**
 * The plugins this repository ships: what its generated files and its docs
 * describe. Any other folder in plugins/ was dropped in by whoever runs it,
 * and tests about "every plugin" find those too (installedPluginFolders).
 */
export const SHIPPED_PLUGINS = [
  'delivery-email',
  'delivery-push',
  'delivery-sms',
  'delivery-voice',
  'delivery-webhook',
  'delivery-webpush',
  'utility-power-outages',
  'utility-scheduled-outages',
] as const;

/** A plugins folder with the shipped plugins only, whatever else plugins/ holds. */
export function shippedPluginsDir(): string {
  const dir = mkdtempSync(path.join(tmpRoot(), 'plugins-'));
  for (const folder of SHIPPED_PLUGINS) cpSync(path.join(projectRoot, 'plugins', folder), path.join(dir, folder), { recursive: true });
  return dir;
}

/**
 * Whether plugins/ holds this plugin: a test or script that uses one plugin among others leaves that part out
 * when it has been taken out, so taking a shipped target out breaks nothing else.
 */
export const installed = (folder: string): boolean => existsSync(path.join(projectRoot, 'plugins', folder, 'index.ts'));

/** Those of `folders` that plugins/ holds. */
export const ifInstalled = (...folders: string[]): string[] => folders.filter(installed);

/** The plugin folders installed in plugins/ (shipped or dropped in), as discovery finds them. */
export function installedPluginFolders(): string[] {
  const dir = path.join(projectRoot, 'plugins');
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.') && !entry.name.startsWith('_') && existsSync(path.join(dir, entry.name, 'index.ts')))
    .map((entry) => entry.name)
    .sort();
}
