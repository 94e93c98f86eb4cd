import createError from '@fastify/error';

/**
 * The one catalogue of coded errors. Domain code throws these; the HTTP error
 * handler maps them to statuses once (core/http/error-handler.ts).
 */
export const Errors = {
  PluginManifestInvalid: createError('NP_PLUGIN_MANIFEST_INVALID', 'Plugin folder "%s": %s', 500),
  MigrationFailed: createError('NP_MIGRATION_FAILED', 'Migrations failed: %s', 500),
  EmbeddedDatabaseInUse: createError('NP_EMBEDDED_DATABASE_IN_USE', '%s', 500),
  UnsupportedEventType: createError('NP_UNSUPPORTED_EVENT_TYPE', 'Renderer of feed "%s" cannot render event type "%s"', 500),
  NoRenderer: createError('NP_NO_RENDERER', 'No renderer of feed "%s" handles event type "%s"', 500),
  UnknownFeed: createError('NP_UNKNOWN_FEED', 'body/feedId: unknown feed "%s"', 400),
  InvalidField: createError('NP_INVALID_FIELD', '%s', 400),
  Unauthorized: createError('NP_UNAUTHORIZED', '%s', 401),
  Forbidden: createError('NP_FORBIDDEN', '%s', 403),
  NotFound: createError('NP_NOT_FOUND', '%s', 404),
  Conflict: createError('NP_CONFLICT', '%s', 409),
  TooManyRequests: createError('NP_TOO_MANY_REQUESTS', '%s', 429),
  TopicNotAllowed: createError('NP_TOPIC_NOT_ALLOWED', 'Push topic "%s" is not allowed by the topic policy', 500),
} as const;
