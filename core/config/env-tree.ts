import type { EnvSnapshot } from './env-source.ts';
import { findPropertyName, isObjectNode, recordValueSchema, type JsonSchema } from './schema-walk.ts';

export interface EnvTree {
  tree: Record<string, unknown>;
  /** Keys inside a known section that no schema property matches (likely typos). */
  unknownKeys: string[];
}

/**
 * Maps environment variables onto the configuration tree: `A__B` (or `A:B`)
 * is key A:B. Names match the schema case-insensitively and take its
 * spelling; an empty value counts as unset; a comma-separated value fills a
 * list. Variables whose first level is no section are not ours and ignored.
 */
export function envToTree(env: EnvSnapshot, schema: JsonSchema): EnvTree {
  const tree: Record<string, unknown> = {};
  const unknownKeys: string[] = [];
  for (const [name, raw] of Object.entries(env)) {
    if (raw === undefined || raw.trim() === '') continue;
    const segments = name.split(/__|:/);
    if (segments.some((segment) => segment === '')) continue;
    let node: JsonSchema = schema;
    let target = tree;
    for (const [index, segment] of segments.entries()) {
      const last = index === segments.length - 1;
      const recordValue = recordValueSchema(node);
      const property = findPropertyName(node, segment);
      let key: string;
      let child: JsonSchema | undefined;
      if (property) {
        key = property;
        child = node.properties![property];
      } else if (recordValue) {
        key = segment;
        child = recordValue;
      } else {
        if (index > 0) unknownKeys.push(name);
        break;
      }
      if (last) {
        target[key] =
          child.type === 'array'
            ? raw
                .split(',')
                .map((part) => part.trim())
                .filter(Boolean)
            : raw;
      } else {
        if (!isObjectNode(child) && !recordValueSchema(child)) {
          unknownKeys.push(name);
          break;
        }
        const next = target[key];
        target[key] = next && typeof next === 'object' ? next : {};
        target = target[key] as Record<string, unknown>;
        node = child;
      }
    }
  }
  return { tree, unknownKeys };
}
