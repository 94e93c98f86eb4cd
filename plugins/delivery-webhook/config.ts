import { Type } from '#plugin-api';

export const webhookConfig = {
  Webhook: Type.Object({
    AllowedHosts: Type.Array(Type.String({ minLength: 1, maxLength: 253 }), {
      default: [],
      description:
        'Hosts a webhook may reach even at a private, loopback or link-local address (an internal receiver), comma-separated; `*.example.org` for subdomains. Any public host is allowed without being listed.',
    }),
    TimeoutSeconds: Type.Integer({ minimum: 1, maximum: 120, default: 10, description: 'Timeout of one delivery request, in seconds.' }),
    ConnectionsPerHost: Type.Integer({ minimum: 1, maximum: 64, default: 8, description: 'Keep-alive connections to one receiver.' }),
    EncryptionKey: Type.Optional(
      Type.String({
        'x-secret': true,
        minLength: 32,
        description:
          'Encrypts the signing secrets at rest (AES-256-GCM, a key derived from this). Unset: they are stored as they are (the service must read a secret back to sign, so only a key kept outside the database protects them).',
      }),
    ),
  }),
};
