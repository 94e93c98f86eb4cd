import Type, { type TSchema } from 'typebox';
import { LOCALES } from '../i18n/index.ts';
import { DEFAULT_RADIUS_METERS, MAX_PLACE_NAME, MAX_PLACES, MAX_RADIUS_METERS } from '../places/index.ts';

const Name = Type.String({ minLength: 1, maxLength: 100 });
const Term = Type.String({ minLength: 1, maxLength: 100 });
const TermList = Type.Array(Term, { maxItems: 50 });

/** A place a subscriber gives: its point, how far around it counts, and a name of theirs. */
export const PlaceSchema = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_PLACE_NAME, description: 'The subscriber\'s own name for it ("Home").' })),
    lat: Type.Number({ minimum: -90, maximum: 90, description: 'Latitude, WGS 84.' }),
    lon: Type.Number({ minimum: -180, maximum: 180, description: 'Longitude, WGS 84.' }),
    radiusMeters: Type.Optional(
      Type.Number({ minimum: 0, maximum: MAX_RADIUS_METERS, description: `How far around the point counts, in metres (default ${DEFAULT_RADIUS_METERS}).` }),
    ),
  },
  { additionalProperties: false },
);

export const FilterSchema = Type.Object(
  {
    feeders: Type.Optional(TermList),
    locationKeywords: Type.Optional(TermList),
    keywords: Type.Optional(TermList),
    eventTypes: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 20 })),
    places: Type.Optional(
      Type.Array(PlaceSchema, {
        maxItems: MAX_PLACES,
        description:
          "Where the subscriber is: an event whose shape comes within a place's radius matches. With locationKeywords, either one matching is enough.",
      }),
    ),
    fields: Type.Optional(
      Type.Record(Type.String({ pattern: '^[a-z][A-Za-z0-9]{0,39}$' }), TermList, {
        maxProperties: 20,
        additionalProperties: false,
        description:
          'Values per filter field the feed declares (its catalog entry\'s filterFields whose property is fields.<id>): `{ "route": ["12", "138"] }`. Any value of a field may match; every field set must.',
      }),
    ),
  },
  { additionalProperties: false },
);

const LocalTime = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'Local wall-clock time, HH:MM (24-hour).' });
const Zone = Type.String({ minLength: 1, maxLength: 64, description: 'An IANA time zone, such as Asia/Colombo.' });

/** What a subscriber decides: quiet hours (urgent alerts still come at once) and the zone their times are written in. */
export const PreferencesSchema = Type.Object(
  {
    quietHours: Type.Optional(
      Type.Object(
        { start: LocalTime, end: LocalTime, timeZone: Type.Optional(Zone) },
        {
          additionalProperties: false,
          description: 'Alerts that are not urgent wait until the end, then come as one catch-up message. A start after the end wraps midnight.',
        },
      ),
    ),
    timeZone: Type.Optional(Zone),
    language: Type.Optional(
      Type.String({
        enum: LOCALES.map((locale) => locale.code),
        description: 'The language of every message, email, text and verification for this subscription: a code GET /api/locales lists.',
      }),
    ),
    confirm: Type.Optional(
      Type.Boolean({
        description:
          'Admin only: the person must confirm each urgent alert (a link or button, YES by text, 1 in a call); unconfirmed, it escalates, then lands in the console\'s "Not confirmed" list. A subscriber who sends another value than the stored one gets a 403.',
      }),
    ),
    escalation: Type.Optional(
      Type.Array(
        Type.Object(
          {
            provider: Type.String({ minLength: 1, maxLength: 64, description: 'An installed provider (Sms, Voice, Email…).' }),
            destination: Type.String({ minLength: 1, maxLength: 320, description: "In that provider's form (E.164 for Sms and Voice); not verified." }),
            afterMinutes: Type.Integer({ minimum: 1, maximum: 10080, description: 'Minutes after the step before (the first: after the alert).' }),
          },
          { additionalProperties: false },
        ),
        {
          maxItems: 5,
          description: 'Admin only, with confirm: where an unconfirmed urgent alert goes next, step by step, until the person confirms.',
        },
      ),
    ),
  },
  { additionalProperties: false },
);

/** Extra properties targets declare (of a create's `delivery`, of its answer): each optional, the first declaration of a name wins. */
export type DeclaredProperties = Readonly<Record<string, TSchema>>;

const optional = (declared: DeclaredProperties) => Object.fromEntries(Object.entries(declared).map(([name, schema]) => [name, Type.Optional(schema)]));

export function createBodySchema(providers: readonly string[], deliveryProperties: DeclaredProperties = {}) {
  return Type.Object(
    {
      displayName: Name,
      feedId: Type.String({ minLength: 1, maxLength: 100 }),
      filter: Type.Optional(FilterSchema),
      preferences: Type.Optional(PreferencesSchema),
      delivery: Type.Object(
        {
          // With no delivery target installed there is nothing to list: the service answers "not available".
          provider: providers.length > 0 ? Type.Union(providers.map((provider) => Type.Literal(provider))) : Type.String({ minLength: 1 }),
          destination: Type.Optional(Type.String({ minLength: 1, maxLength: 320 })),
          ...optional(deliveryProperties),
        },
        { additionalProperties: false },
      ),
    },
    {
      additionalProperties: false,
      // Shown in the API docs, and the starting point of the hostile-input tests' mutations.
      examples: [
        {
          displayName: 'Kandy outages',
          feedId: 'utility.power-outages',
          filter: { locationKeywords: ['Kandy'], feeders: ['F12'], keywords: ['line'] },
          delivery: { provider: 'Push' },
        },
        {
          displayName: 'Home',
          feedId: 'utility.scheduled-outages',
          filter: { eventTypes: ['NewEntry'] },
          delivery: { provider: 'Email', destination: 'me@example.org' },
        },
      ],
    },
  );
}

/** PATCH: what a subscriber may change; at least one of them. */
export const UpdateBodySchema = Type.Object(
  { displayName: Type.Optional(Name), filter: Type.Optional(FilterSchema), preferences: Type.Optional(PreferencesSchema) },
  {
    additionalProperties: false,
    minProperties: 1,
    examples: [
      { displayName: 'Home', filter: { locationKeywords: ['Kandy', 'Peradeniya'], eventTypes: ['NewOutage', 'Restoration'] } },
      { preferences: { quietHours: { start: '22:00', end: '06:30', timeZone: 'Asia/Colombo' } } },
    ],
  },
);

export const SubscriptionSchema = Type.Object({
  publicId: Type.String(),
  displayName: Type.String(),
  feedId: Type.String(),
  filter: FilterSchema,
  preferences: PreferencesSchema,
  delivery: Type.Object({ provider: Type.String(), destination: Type.String() }),
  scope: Type.String(),
  isActive: Type.Boolean(),
  subscribeUrl: Type.Union([Type.String(), Type.Null()]),
  subscribeUrlUnavailableReason: Type.Union([Type.String(), Type.Null()]),
  subscribeSteps: Type.Array(Type.String(), {
    description: 'What a person does with the subscribe link, step by step (install the app, enter the topic); empty without a link.',
  }),
  createdAt: Type.String(),
});

export const createdSchema = (createdProperties: DeclaredProperties = {}) =>
  Type.Object({ ...SubscriptionSchema.properties, manageToken: Type.String(), ...optional(createdProperties) });

export const PublicIdParams = Type.Object({ publicId: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' }) }, { additionalProperties: false });

export const TestResultSchema = Type.Object({ matchedSubscriptionCount: Type.Integer(), deliveredCount: Type.Integer() });
