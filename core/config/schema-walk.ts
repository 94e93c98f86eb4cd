/** Small helpers to walk plain JSON Schema objects (what TypeBox produces). */
export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  patternProperties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  required?: string[];
  default?: unknown;
  description?: string;
  enum?: unknown[];
  const?: unknown;
  'x-secret'?: boolean;
  [key: string]: unknown;
};

/** The schema of a record's values (TypeBox Record), if this node is a record. */
export function recordValueSchema(node: JsonSchema): JsonSchema | undefined {
  if (node.patternProperties) return Object.values(node.patternProperties)[0];
  if (typeof node.additionalProperties === 'object') return node.additionalProperties;
  return undefined;
}

export function isObjectNode(node: JsonSchema): boolean {
  return node.type === 'object' || node.properties !== undefined;
}

export function findPropertyName(node: JsonSchema, segment: string): string | undefined {
  if (!node.properties) return undefined;
  if (segment in node.properties) return segment;
  const lower = segment.toLowerCase();
  return Object.keys(node.properties).find((name) => name.toLowerCase() === lower);
}

export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
