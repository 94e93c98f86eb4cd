import { createValidator, Type, type ValidationResult } from '#plugin-api';
import type { ScheduledOutageItem } from './scheduled-types.ts';

const Time = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' });

/** The answer of GET {ExternalProvider__BaseUrl}/scheduled-outages (contracts §7); unknown extra fields are ignored. */
export const ScheduledOutageFeedSchema = Type.Object({
  outages: Type.Array(
    Type.Object({
      id: Type.String({ minLength: 1, maxLength: 200 }),
      date: Type.String({ format: 'date' }),
      start: Time,
      end: Time,
      feeder: Type.String({ maxLength: 200 }),
      areas: Type.Array(Type.String({ maxLength: 200 }), { maxItems: 500 }),
      reason: Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Null()])),
      status: Type.Union([Type.Literal('scheduled'), Type.Literal('cancelled')]),
    }),
    { maxItems: 20_000 },
  ),
});

const validate = createValidator(ScheduledOutageFeedSchema);

/** The items of a checked answer, or the first rule it breaks. */
export function parseScheduledOutageFeed(data: unknown): ValidationResult<ScheduledOutageItem[]> {
  const result = validate(data);
  return result.ok ? { ok: true, value: result.value.outages } : result;
}
