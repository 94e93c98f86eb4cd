/** The shape checks the manifest validators share. */
export const isFn = (value: unknown) => typeof value === 'function';
export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
