import type { FastifyInstance, onRequestHookHandler, FastifyRequest } from 'fastify';
import type { Knex } from 'knex';
import { parse } from 'csv-parse/sync';
import Type from 'typebox';
import { audit } from '../audit/audit-log.ts';
import { Errors } from '../errors.ts';
import type { DeliveryTarget } from '../plugin-api/delivery-types.ts';
import type { FeedPluginManifest } from '../plugin-api/manifest.ts';
import { randomToken } from '../plugin-api/random-token.ts';
import { errorResponses } from '../plugin-api/response-schemas.ts';
import { insertCreated } from '../subscriptions/subscription-repository.ts';
import { checkFilterAgainstFeed, hashToken } from '../subscriptions/subscription-policy.ts';
import { pgArray as array } from '../plugin-api/pg-array.ts';
import { readRegister, type RegisterRefusal, type RegisterSubscription } from './register-rows.ts';

/** Which of these already have a subscription to the feed by the same provider and destination (one query). */
async function subscribedAlready(db: Knex, feedId: string, subscriptions: readonly RegisterSubscription[]): Promise<RegisterSubscription[]> {
  if (subscriptions.length === 0) return [];
  const result = await db.raw(
    `SELECT DISTINCT v.provider, v.destination FROM unnest(?::text[], ?::text[]) AS v(provider, destination)
       JOIN notification_subscriptions s ON s.feed_id = ? AND s.provider = v.provider AND s.destination = v.destination`,
    [array(subscriptions.map((s) => s.provider)), array(subscriptions.map((s) => s.destination)), feedId],
  );
  const known = new Set((result.rows as Array<{ provider: string; destination: string }>).map((row) => `${row.provider} ${row.destination}`));
  return subscriptions.filter((s) => known.has(`${s.provider} ${s.destination}`));
}

/** A register's lines at most (about a city's life-support register), and its size. */
export const MAX_REGISTER_LINES = 5000;
const MAX_REGISTER_BYTES = 2 * 1024 * 1024;

export interface RegisterRouteOptions {
  readonly db: Knex;
  readonly targets: ReadonlyMap<string, DeliveryTarget>;
  readonly catalogFeed: (feedId: string) => FeedPluginManifest | undefined;
  readonly now: () => Date;
  readonly actorOf: (request: FastifyRequest) => Promise<string>;
  /** Signed in, with the session's CSRF token. */
  readonly change: { onRequest: onRequestHookHandler[] };
}

const Body = Type.Object(
  {
    feedId: Type.String({ minLength: 1, maxLength: 100, description: 'The feed the people are subscribed to (power outages).' }),
    csv: Type.String({
      maxLength: MAX_REGISTER_BYTES,
      description: 'The register: a header line (name, phone, email, language, feeder, place), then one line a person.',
    }),
    dryRun: Type.Optional(Type.Boolean({ description: 'Only check it: nothing is stored.' })),
  },
  { additionalProperties: false },
);
const Report = Type.Object({
  imported: Type.Boolean({ description: 'True when every line was taken and stored; false when one was refused (nothing is stored) or it was only checked.' }),
  people: Type.Integer({ description: 'Lines taken (or that would be).' }),
  subscriptions: Type.Integer({ description: 'Subscriptions made (or that would be): one per phone and per email of a line.' }),
  refused: Type.Array(Type.Object({ line: Type.Integer(), column: Type.String(), reason: Type.String() })),
});

/**
 * POST /console/api/register: imports a register of people whose life
 * depends on power (life support, medical equipment) into confirming
 * subscriptions: a call (else a text) to each phone, an email to each
 * address, each active at once (the utility vouches for its register),
 * each confirming every urgent alert. Every line is checked, and every
 * problem reported; one refused line stores nothing. Audited.
 */
export async function registerRoutes(app: FastifyInstance, options: RegisterRouteOptions): Promise<void> {
  const phoneTarget = options.targets.get('Voice') ?? options.targets.get('Sms');
  const emailTarget = options.targets.get('Email');
  app.post<{ Body: { feedId: string; csv: string; dryRun?: boolean } }>(
    '/console/api/register',
    {
      ...options.change,
      bodyLimit: MAX_REGISTER_BYTES + 64 * 1024,
      schema: {
        summary: 'Import a register of people who must confirm each urgent alert (CSV), or check it first',
        tags: ['console'],
        body: Body,
        response: { 200: Report, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { feedId, csv, dryRun } = request.body;
      const feed = options.catalogFeed(feedId);
      if (!feed) throw new Errors.InvalidField(`body/feedId: ${feedId} is not a feed of this service`);
      let header: string[] = [];
      let records: Array<{ line: number; values: Record<string, string> }>;
      try {
        const parsed = parse(csv, {
          bom: true,
          columns: (names: string[]) => (header = names),
          skip_empty_lines: true,
          trim: true,
          info: true,
        }) as unknown as Array<{ record: Record<string, string>; info: { lines: number } }>;
        // The line a person's record ends on (a quoted name may span two): what an operator finds in the file.
        records = parsed.map(({ record, info }) => ({ line: info.lines, values: record }));
      } catch (err) {
        const line = Number((err as { lines?: number }).lines ?? 1);
        return {
          imported: false,
          people: 0,
          subscriptions: 0,
          refused: [{ line, column: '', reason: `is not CSV (${(err as { code?: string }).code ?? 'unreadable'})` }],
        };
      }
      if (records.length > MAX_REGISTER_LINES) {
        return {
          imported: false,
          people: 0,
          subscriptions: 0,
          refused: [{ line: 1, column: '', reason: `names more than ${MAX_REGISTER_LINES} people: split it` }],
        };
      }
      const { subscriptions, refused } = readRegister(records, header, { phone: phoneTarget, email: emailTarget });
      const later: RegisterRefusal[] = [];
      const lines = new Set<number>();
      for (const subscription of subscriptions) {
        if (lines.has(subscription.line)) continue;
        lines.add(subscription.line);
        try {
          checkFilterAgainstFeed(feedId, feed, subscription.filter);
        } catch (err) {
          later.push({
            line: subscription.line,
            column: subscription.filter.feeders ? 'feeder' : 'place',
            reason: (err as Error).message.replace(/^body\/filter\/\S+ ?/, ''),
          });
        }
      }
      // Imported twice (the same file again, or a person subscribed already): refused, not called twice.
      for (const known of await subscribedAlready(options.db, feedId, subscriptions)) {
        later.push({
          line: known.line,
          column: known.provider === emailTarget?.provider ? 'email' : 'phone',
          reason: 'has a subscription to this feed already',
        });
      }
      const problems = [...refused, ...later].sort((a, b) => a.line - b.line);
      const people = new Set(subscriptions.map((s) => s.line)).size;
      if (problems.length > 0 || dryRun)
        return { imported: false, people: problems.length > 0 ? 0 : people, subscriptions: problems.length > 0 ? 0 : subscriptions.length, refused: problems };
      const actor = await options.actorOf(request);
      const now = options.now();
      await options.db.transaction(async (trx) => {
        await insertCreated(
          trx,
          subscriptions.map((s) => ({
            verifiedAddress: null,
            row: {
              public_id: randomToken(16),
              display_name: s.displayName,
              feed_id: feedId,
              filter_json: s.filter,
              preferences: { confirm: true, language: s.language },
              provider: s.provider,
              destination: s.destination,
              scope: 'User',
              is_active: true,
              pending_verification: false,
              owner_user_id: actor,
              created_ip: null,
              // Managed by admins: nobody holds a manage token of these.
              manage_token_hash: hashToken(randomToken(32)),
            },
          })),
          now.toISOString().slice(0, 10),
        );
        await audit(trx, actor, 'register-import', { feedId, people, subscriptions: subscriptions.length });
      });
      request.log.info({ feedId, people, subscriptions: subscriptions.length }, 'register imported into confirming subscriptions');
      return { imported: true, people, subscriptions: subscriptions.length, refused: [] };
    },
  );
}
