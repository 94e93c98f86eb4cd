import createError from '@fastify/error';

/** An error with its code and HTTP status: what the error handler maps. */
export interface CodedError extends Error {
  readonly code: string;
  readonly statusCode: number;
}

/** A class of coded errors: `new Errors.InvalidField('body/x: …')`, the arguments filling its message's `%s`. */
export interface CodedErrorClass<Code extends string = string, Status extends number = number> {
  new (...args: unknown[]): CodedError & { readonly code: Code; readonly statusCode: Status };
  readonly prototype: CodedError;
}

/** @fastify/error's class, typed by the contract's own names (a plugin's types never depend on that package's). */
const coded = <Code extends string, Status extends number>(code: Code, message: string, status: Status) =>
  createError(code, message, status) as unknown as CodedErrorClass<Code, Status>;

/**
 * The one catalogue of coded errors. Core and plugins throw these; the HTTP
 * error handler maps them to statuses once (core/http/error-handler.ts).
 * Part of the plugin contract: a code, once given, keeps its meaning.
 */
export const Errors = {
  PluginManifestInvalid: coded('NP_PLUGIN_MANIFEST_INVALID', 'Plugin folder "%s": %s', 500),
  MigrationFailed: coded('NP_MIGRATION_FAILED', 'Migrations failed: %s', 500),
  EmbeddedDatabaseInUse: coded('NP_EMBEDDED_DATABASE_IN_USE', '%s', 500),
  UnsupportedEventType: coded('NP_UNSUPPORTED_EVENT_TYPE', 'Renderer of feed "%s" cannot render event type "%s"', 500),
  NoRenderer: coded('NP_NO_RENDERER', 'No renderer of feed "%s" handles event type "%s"', 500),
  UnknownFeed: coded('NP_UNKNOWN_FEED', 'body/feedId: unknown feed "%s"', 400),
  InvalidField: coded('NP_INVALID_FIELD', '%s', 400),
  Unauthorized: coded('NP_UNAUTHORIZED', '%s', 401),
  Forbidden: coded('NP_FORBIDDEN', '%s', 403),
  NotFound: coded('NP_NOT_FOUND', '%s', 404),
  Conflict: coded('NP_CONFLICT', '%s', 409),
  TooManyRequests: coded('NP_TOO_MANY_REQUESTS', '%s', 429),
  TopicNotAllowed: coded('NP_TOPIC_NOT_ALLOWED', 'Push topic "%s" is not allowed by the topic policy', 500),
} as const;
