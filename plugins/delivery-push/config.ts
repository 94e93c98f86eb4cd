import { Type } from '#plugin-api';

// Attempts and backoff are core's (the dispatcher persists retries in the ledger), so this
// section holds only what the publisher itself needs.
export const pushConfig = {
  'Notifications:Push': Type.Object({
    BaseUrl: Type.Optional(Type.String({ format: 'uri', description: 'Address of the push server ({push_url}).' })),
    PublishToken: Type.Optional(Type.String({ 'x-secret': true, description: 'Publish token of the push server (Bearer).' })),
    TopicPrefix: Type.String({
      default: 'alerts-',
      pattern: '^[-_A-Za-z0-9]{1,32}$',
      description: 'Prefix of generated per-subscription topics.',
    }),
    AllowedTopics: Type.Array(Type.String({ pattern: '^[-_A-Za-z0-9]{1,64}$' }), {
      default: [],
      description: 'Extra allowlisted topics, comma-separated (feed system topics are allowed without being listed).',
    }),
    AllowedTopicPrefixes: Type.Array(Type.String({ pattern: '^[-_A-Za-z0-9]{1,63}$' }), {
      default: [],
      description: 'Extra allowlisted topic prefixes, comma-separated.',
    }),
    TimeoutSeconds: Type.Integer({ minimum: 1, default: 10, description: 'Timeout of one publish request, in seconds.' }),
    Connections: Type.Integer({ minimum: 1, maximum: 256, default: 16, description: 'Keep-alive connections to the push server.' }),
    RequestsPerConnection: Type.Integer({
      minimum: 1,
      maximum: 64,
      default: 16,
      description: 'Publish requests in flight per connection (Connections times this bounds one batch).',
    }),
    Threads: Type.Integer({
      minimum: 0,
      maximum: 64,
      default: 0,
      description: 'Worker threads that publish (the connections shared among them); 0: the main thread publishes.',
    }),
  }),
};
