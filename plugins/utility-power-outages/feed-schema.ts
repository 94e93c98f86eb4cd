import { createValidator, Type } from '#plugin-api';

/** The answer of GET {ExternalProvider__BaseUrl}/power-outages (contracts §7); unknown extra fields are ignored. */
export const PowerOutageFeedSchema = Type.Object({
  outages: Type.Array(
    Type.Object({
      id: Type.String({ minLength: 1, maxLength: 200 }),
      feeder: Type.String({ maxLength: 200 }),
      areas: Type.Array(Type.String({ maxLength: 200 }), { maxItems: 500 }),
      timeOff: Type.String({ format: 'date-time' }),
      timeRestored: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
      cause: Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Null()])),
      customersAffected: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])),
    }),
    { maxItems: 20_000 },
  ),
});

export const validatePowerOutageFeed = createValidator(PowerOutageFeedSchema);
