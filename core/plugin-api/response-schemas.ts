import Type from 'typebox';

/** Fastify's error shape, every error of every route: `{ statusCode, code, error, message }`. */
export const ErrorSchema = Type.Object({
  statusCode: Type.Integer(),
  code: Type.String(),
  error: Type.String(),
  message: Type.String({ description: 'For a 4xx, names the field or says what to do; a 5xx says nothing of its cause.' }),
});

const MEANINGS: Readonly<Record<number, string>> = {
  400: 'Bad request: the message names the field.',
  401: 'No credentials, or a bearer token that does not verify.',
  403: 'Credentials that do not allow this.',
  404: 'Not found.',
  409: 'Conflict with the current state.',
  413: 'Body larger than Server__BodyLimitBytes.',
  414: 'A path parameter longer than the router takes.',
  415: 'Unsupported content type.',
  429: 'Over a limit: see the Retry-After header.',
  500: 'Internal error: the message says nothing of its cause (the log has it).',
  502: 'A service this one asks (the geocoder) did not answer, or answered an error.',
  503: 'Not ready.',
};

/** The error responses of a route's schema, each with what it means: `{ ...errorResponses(401, 403) }`. */
export function errorResponses(...statuses: number[]): Record<number, typeof ErrorSchema> {
  return Object.fromEntries(statuses.map((status) => [status, { ...ErrorSchema, description: MEANINGS[status] ?? 'Error.' }]));
}

const Text = { type: 'string' } as const;

/** A response that is not JSON (a page, a script, an image, the metrics text), for the API document. */
export function textResponse(mediaType: string, description: string) {
  return { description, content: { [mediaType]: { schema: Text } } };
}

/** A link a person clicks (a page) or an API client calls (the JSON error): both, by the request's Accept. */
export function pageOrError(description: string) {
  return { description, content: { 'text/html': { schema: Text }, 'application/json': { schema: ErrorSchema } } };
}

/** A response without a body (204). */
export const noContent = (description: string) => ({ description, type: 'null' as const });
