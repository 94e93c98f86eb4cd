import type { JsonSchema } from './schema-walk.ts';
import { coreConfigSchema } from './core-config-schema.ts';

export interface SectionOwner {
  owner: string;
  /** Section path with ':' between levels, for example "Notifications:Push". */
  sections: Readonly<Record<string, unknown>>;
}

const overlaps = (a: string, b: string) => a === b || a.startsWith(`${b}:`) || b.startsWith(`${a}:`);

/**
 * Core's schema plus every plugin's sections, nested at their paths. A
 * section has one owner: a path that equals or nests in another owner's
 * path stops the start with both names.
 */
export function composeConfigSchema(owners: readonly SectionOwner[]): JsonSchema {
  const root = structuredClone(coreConfigSchema) as unknown as JsonSchema;
  const claims: Array<{ path: string; owner: string }> = Object.keys(root.properties ?? {}).map((path) => ({ path, owner: 'core' }));
  for (const { owner, sections } of owners) {
    for (const [path, sectionSchema] of Object.entries(sections)) {
      const clash = claims.find((claim) => overlaps(claim.path, path));
      if (clash) throw new Error(`config section "${path}" of ${owner} overlaps "${clash.path}" of ${clash.owner}`);
      claims.push({ path, owner });
      const segments = path.split(':');
      let node = root;
      for (const segment of segments.slice(0, -1)) {
        node.properties ??= {};
        node.properties[segment] ??= { type: 'object', properties: {}, default: {} };
        node = node.properties[segment];
      }
      node.properties ??= {};
      node.properties[segments.at(-1)!] = { ...(structuredClone(sectionSchema) as JsonSchema), default: {} };
    }
  }
  return root;
}

/** The sections a plugin declares, picked out of the full validated tree: `{ 'Notifications:Push': {...} }`, frozen. */
export function pickSections(sections: Readonly<Record<string, unknown>>, fullConfig: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  const picked: Record<string, unknown> = {};
  for (const path of Object.keys(sections)) {
    picked[path] = path.split(':').reduce<unknown>((node, key) => (node as Record<string, unknown>)?.[key], fullConfig);
  }
  return Object.freeze(picked);
}
