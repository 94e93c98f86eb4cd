import { isLocale } from '../i18n/index.ts';
import type { DeliveryTarget } from '../plugin-api/delivery-types.ts';
import { checkDisplayName } from '../subscriptions/subscription-policy.ts';
import type { SubscriptionFilter } from '../matching/index.ts';

/** The columns a register has (its first line names them, in any order and case); `feeder` or `place` says where the person is. */
export const REGISTER_COLUMNS = ['name', 'phone', 'email', 'language', 'feeder', 'place'] as const;
type Column = (typeof REGISTER_COLUMNS)[number];
/** A name's length at most (as a subscription's displayName). */
const MAX_NAME = 100;
/** How far around a register's place counts, in metres: a house, and the lines that feed it. */
export const REGISTER_RADIUS_METERS = 500;

/** One subscription a register's line asks for. */
export interface RegisterSubscription {
  /** The line of the file it came from (the header is line 1). */
  readonly line: number;
  readonly displayName: string;
  readonly provider: string;
  readonly destination: string;
  readonly language: string;
  readonly filter: SubscriptionFilter;
}

/** Why a line (or the header, line 1) was refused: the column, and what is wrong, in words. */
export interface RegisterRefusal {
  readonly line: number;
  readonly column: string;
  readonly reason: string;
}

export interface RegisterTargets {
  /** The target that calls (Voice) or, without one, texts (Sms) a phone number; none: phones are refused. */
  readonly phone: DeliveryTarget | undefined;
  readonly email: DeliveryTarget | undefined;
}

const reasonOf = (err: unknown) => (err instanceof Error ? err.message.replace(/^body\/delivery\/destination /, '') : 'is not valid');

/**
 * Reads a register's lines (pure, once the CSV is parsed): each line asks
 * for a confirming subscription by phone (a call, else a text) and one by
 * email, each that it gives, in its language, for its feeder or its place.
 * Every problem of every line is reported (the line, the column, why); the
 * caller stores nothing when there is one.
 */
export function readRegister(
  records: ReadonlyArray<{ readonly line: number; readonly values: Readonly<Record<string, string>> }>,
  header: readonly string[],
  targets: RegisterTargets,
): { readonly subscriptions: RegisterSubscription[]; readonly refused: RegisterRefusal[] } {
  const refused: RegisterRefusal[] = [];
  const columns = header.map((name) => name.trim().toLowerCase());
  const unknown = columns.filter((name) => !REGISTER_COLUMNS.includes(name as Column));
  if (unknown.length > 0) refused.push({ line: 1, column: unknown[0]!, reason: `is not a column of a register (${REGISTER_COLUMNS.join(', ')})` });
  if (!columns.includes('name')) refused.push({ line: 1, column: 'name', reason: 'is missing' });
  if (!columns.includes('phone') && !columns.includes('email')) refused.push({ line: 1, column: 'phone', reason: 'is missing (or email)' });
  if (!columns.includes('feeder') && !columns.includes('place')) refused.push({ line: 1, column: 'feeder', reason: 'is missing (or place)' });
  const repeated = columns.find((name, index) => columns.indexOf(name) !== index);
  if (repeated !== undefined) refused.push({ line: 1, column: repeated, reason: 'is named twice' });
  if (refused.length === 0 && records.length === 0) refused.push({ line: 1, column: '', reason: 'is the only line: the register names nobody' });
  if (refused.length > 0) return { subscriptions: [], refused };

  const subscriptions: RegisterSubscription[] = [];
  /** Each destination's first line: a person twice in the register would be called twice for every alert. */
  const seen = new Map<string, number>();
  for (const { line, values: raw } of records) {
    const value = (column: Column) => (Object.entries(raw).find(([name]) => name.trim().toLowerCase() === column)?.[1] ?? '').trim();
    const problems: RegisterRefusal[] = [];
    const refuse = (column: string, reason: string) => problems.push({ line, column, reason });

    let displayName = '';
    try {
      displayName = checkDisplayName(value('name'), 'name');
      if (displayName.length > MAX_NAME) refuse('name', `is longer than ${MAX_NAME} characters`);
    } catch (err) {
      refuse('name', reasonOf(err).replace(/^name /, ''));
    }
    const language = value('language') === '' ? 'en' : value('language').toLowerCase();
    if (!isLocale(language)) refuse('language', `${JSON.stringify(value('language').slice(0, 20))} is not a language of the service (en, si, ta)`);

    const where = wherePerson(value('feeder'), value('place'));
    if ('reason' in where) refuse(where.column, where.reason);

    const contacts: Array<{ provider: string; destination: string }> = [];
    for (const [column, target] of [
      ['phone', targets.phone],
      ['email', targets.email],
    ] as const) {
      const given = value(column);
      if (given === '') continue;
      if (!target) {
        refuse(column, `cannot be used: no ${column === 'phone' ? 'voice or text-message' : 'email'} target is installed`);
        continue;
      }
      try {
        const destination = target.prepareDestination(given, { scope: 'System' });
        const key = `${target.provider} ${destination}`;
        const first = seen.get(key);
        if (first !== undefined) refuse(column, `is on line ${first} too: a person once`);
        else seen.set(key, line);
        contacts.push({ provider: target.provider, destination });
      } catch (err) {
        refuse(column, reasonOf(err));
      }
    }
    if (value('phone') === '' && value('email') === '') refuse('phone', 'is empty, and so is email: the person could not be reached');

    if (problems.length > 0) refused.push(...problems);
    else if ('filter' in where) for (const contact of contacts) subscriptions.push({ line, displayName, language, filter: where.filter, ...contact });
  }
  return { subscriptions, refused };
}

/** Where a person is: a feeder code, or a place `lat, lon` (WGS 84); exactly one. Pure. */
function wherePerson(feeder: string, place: string): { filter: SubscriptionFilter } | { column: string; reason: string } {
  if (feeder !== '' && place !== '') return { column: 'place', reason: 'is given with a feeder: give one of them' };
  if (feeder !== '') return feeder.length <= 100 ? { filter: { feeders: [feeder] } } : { column: 'feeder', reason: 'is longer than 100 characters' };
  if (place === '') return { column: 'feeder', reason: 'is empty, and so is place: say where the person is' };
  const match = /^\s*(-?\d{1,2}(?:\.\d+)?)\s*[,;\s]\s*(-?\d{1,3}(?:\.\d+)?)\s*$/.exec(place);
  const lat = Number(match?.[1]);
  const lon = Number(match?.[2]);
  if (!match || Math.abs(lat) > 90 || Math.abs(lon) > 180) return { column: 'place', reason: 'must be a latitude and a longitude, like "7.2906, 80.6337"' };
  return { filter: { places: [{ lat, lon, radiusMeters: REGISTER_RADIUS_METERS }] } };
}
