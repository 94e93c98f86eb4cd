import { createValidator, Type, type ValidationResult } from '#plugin-api';
import type { PowerOutageItem } from './outage-types.ts';

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
      estimatedRestoration: Type.Optional(Type.Union([Type.String({ format: 'date-time' }), Type.Null()])),
    }),
    { maxItems: 20_000 },
  ),
});

const validate = createValidator(PowerOutageFeedSchema);

/** The items of a checked answer, or the first rule it breaks. */
export function parsePowerOutageFeed(data: unknown): ValidationResult<PowerOutageItem[]> {
  const result = validate(data);
  return result.ok ? { ok: true, value: result.value.outages } : result;
}
