import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import type { ProviderInfo } from '../plugin-api/target-presentation.ts';
import { LOCALES } from '../i18n/index.ts';

const ProviderSchema = Type.Object({
  provider: Type.String({ description: "The value of a create request's delivery.provider." }),
  displayName: Type.String({ description: 'What people call it.' }),
  destination: Type.Object({
    required: Type.Boolean({ description: 'true: a create request carries delivery.destination; false: the service makes one (and refuses a given one).' }),
    description: Type.String({ description: 'What the destination is.' }),
    label: Type.Optional(Type.String({ description: "A form field's label for it." })),
    inputType: Type.Optional(Type.Union([Type.Literal('email'), Type.Literal('tel'), Type.Literal('url'), Type.Literal('text')])),
    autocomplete: Type.Optional(Type.String()),
    hint: Type.Optional(Type.String({ description: 'A line for people under the field.' })),
    placeholder: Type.Optional(Type.String()),
    browserSubscription: Type.Optional(
      Type.Object(
        { publicKeyUrl: Type.String(), serviceWorkerUrl: Type.String() },
        {
          description:
            'The browser is the destination: register the service worker, subscribe with the key publicKeyUrl answers, send PushSubscription.toJSON() as delivery.subscription.',
        },
      ),
    ),
  }),
  available: Type.Boolean({
    description:
      'Whether it delivers now. A create with an unavailable provider is still accepted when the target is installed; its deliveries wait until the operator sets it up.',
  }),
  unavailableReason: Type.Union([Type.String(), Type.Null()], { description: 'Why not, naming the setting; null when available.' }),
  confirmation: Type.Union(
    [
      Type.Object({
        heading: Type.String(),
        text: Type.String({ description: "{destination} stands for the subscription's destination." }),
        codeUrl: Type.Optional(
          Type.String({
            description:
              'For a confirmation by a code the person types (a text message\'s): where to POST `{ "code": "123456" }` with the manage token; {publicId} stands for the subscription\'s.',
          }),
        ),
      }),
      Type.Null(),
    ],
    { description: 'For a provider whose subscriptions wait for confirmation: what to tell the person meanwhile.' },
  ),
  subscribeLinkLabel: Type.Union([Type.String(), Type.Null()], {
    description: "What a button to a subscription's subscribe link says, in the target's words; null: the target gives none (it may have no links).",
  }),
  shownOnce: Type.Array(Type.Object({ field: Type.String(), description: Type.String() }), {
    description: "Fields the create answer holds for this provider, shown only then (a webhook's signing secret): keep them.",
  }),
  languages: Type.Union([Type.Array(Type.String()), Type.Null()], {
    description:
      'The languages it can present, when not all (a voice gateway has voices for some): a subscriber who chose another gets its messages in English. Null: every language.',
  }),
});

/** GET /api/notification-providers: the installed delivery targets, their destination format and whether each delivers now. */
const ProvidersQuery = Type.Object(
  {
    language: Type.Optional(
      Type.Union(
        LOCALES.map((locale) => Type.Literal(locale.code)),
        { description: "The language of the targets' words for people: names, field labels and hints, confirmation words (English by default)." },
      ),
    ),
  },
  { additionalProperties: false },
);

export async function providerRoutes(app: FastifyInstance, options: { list: (language?: string) => ProviderInfo[] }) {
  const schema = {
    summary: 'The delivery providers',
    description:
      'Every installed delivery target: the provider value a create request names, what its destination is, and whether it can deliver now (and if not, why).',
    tags: ['feeds'],
    querystring: ProvidersQuery,
    response: { 200: Type.Array(ProviderSchema) },
  };
  app.get<{ Querystring: { language?: string } }>('/api/notification-providers', { schema }, async (request) => options.list(request.query.language));
}
