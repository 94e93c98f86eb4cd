import { cpSync, mkdtempSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../core/paths.ts';
import { tmpRoot } from './databases.ts';

/** The folders of a feed and a target written by someone else against the plugin API alone (test/fixtures/third-party). */
export const THIRD_PARTY_DIR = path.join(projectRoot, 'test', 'fixtures', 'third-party');
export const THIRD_PARTY_PLUGINS = ['utility-water-supply', 'delivery-chat'] as const;

/** A plugins folder as an operator makes it: every shipped plugin, and the third-party folders dropped in beside them. */
export function pluginsWithThirdParty(): string {
  const dir = mkdtempSync(path.join(tmpRoot(), 'plugins-'));
  for (const folder of readdirSync(path.join(projectRoot, 'plugins')))
    cpSync(path.join(projectRoot, 'plugins', folder), path.join(dir, folder), { recursive: true });
  for (const folder of THIRD_PARTY_PLUGINS) cpSync(path.join(THIRD_PARTY_DIR, folder), path.join(dir, folder), { recursive: true });
  return dir;
}
