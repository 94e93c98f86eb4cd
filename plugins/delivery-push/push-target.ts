import { Errors, Limiter, randomToken, type DeliveryOutcome, type DeliveryPluginContext, type DeliveryRequest, type DeliveryTarget } from '#plugin-api';
import { mapWithConcurrency } from './concurrency.ts';
import type { pushConfig } from './config.ts';
import { buildPublishBody, type PublishBody } from './publish-payload.ts';
import { outcomeOf, type PublishResult } from './publish-result.ts';
import { createPublisher, type Publisher } from './publisher.ts';
import { composeTopicPolicy, topicRefusal, type TopicPolicy } from './topic-policy.ts';

export type PushContext = DeliveryPluginContext<typeof pushConfig>;

interface BatchStats {
  interrupted: number;
  unconfigured: number;
}

/** Why there is no subscribe link and no delivery: said to clients (create answer) and in the log. */
const NOT_CONFIGURED = 'No push server is configured (Notifications__Push__BaseUrl is unset), so there is no subscribe link yet and push notifications wait until one is set.';

/** 16 random bytes: 128 bits, 22 characters of base64url (inside the topic alphabet). */
const GENERATED_TOPIC_BYTES = 16;

export function generateTopic(prefix: string): string {
  return prefix + randomToken(GENERATED_TOPIC_BYTES);
}

/**
 * The Push delivery target: generated per-subscription topics, the topic
 * policy on every publish, and JSON publishes with bounded concurrency. It
 * judges each publish and hands the outcome back; attempts, backoff and the
 * ledger are core's.
 */
export function createPushTarget(context: PushContext): DeliveryTarget {
  const settings = context.config['Notifications:Push'];
  const log = context.log;
  const policy: TopicPolicy = composeTopicPolicy({
    allowlist: context.topicAllowlist,
    allowedTopics: settings.AllowedTopics,
    allowedTopicPrefixes: settings.AllowedTopicPrefixes,
    generatedTopicPrefix: settings.TopicPrefix,
  });
  const baseUrl = settings.BaseUrl?.replace(/\/+$/, '');
  const publisher: Publisher | undefined = baseUrl
    ? createPublisher({
        baseUrl,
        token: settings.PublishToken,
        timeoutMs: settings.TimeoutSeconds * 1000,
        connections: settings.Connections,
      })
    : undefined;
  if (!publisher) log.warn('Notifications__Push__BaseUrl is not set: push deliveries wait for retry until it is');
  // One bound for every batch the dispatcher works at once.
  const inFlight = new Limiter(settings.Connections * settings.RequestsPerConnection);

  /** `stats` counts publishes stopped by shutdown and those with no push server: logged once per batch, not per request. */
  async function deliverOne(request: DeliveryRequest, signal: AbortSignal, stats: BatchStats): Promise<DeliveryOutcome> {
    const topic = request.subscription.destination;
    const logFields = { ledgerId: request.ledgerId, attempt: request.attempt, topic };
    const refusal = topicRefusal(topic, policy);
    if (refusal !== null) {
      const reason = `topic "${topic}" refused by the topic policy: ${refusal}`;
      log.warn({ ...logFields, outcome: 'failed' }, reason);
      return { kind: 'failed', reason };
    }
    if (!publisher) {
      stats.unconfigured++;
      return { kind: 'retry', reason: 'push server not configured (Notifications__Push__BaseUrl is unset)' };
    }
    let body: PublishBody;
    try {
      body = buildPublishBody(topic, request.event.feedId, request.rendered, request.event.itemKey ?? request.event.sourceKey);
    } catch (err) {
      // A stored rendering that cannot be sent now never will be.
      const reason = `cannot build the push message: ${(err as Error).message}`;
      log.warn({ ...logFields, outcome: 'failed' }, reason);
      return { kind: 'failed', reason };
    }
    const result = await publisher.publish(body, signal);
    const outcome = outcomeOf(result, context.now());
    if (result.kind === 'aborted') stats.interrupted++;
    else if (outcome.kind !== 'delivered') {
      // The reason holds the status and the server's code: never the token or the message.
      log.warn({ ...logFields, outcome: outcome.kind, ...answerFields(result) }, `push delivery not made: ${outcome.reason}`);
    }
    return outcome;
  }

  return {
    provider: 'Push',
    startsActive: true,

    prepareDestination(requested, { scope }) {
      if (scope !== 'System') {
        if (requested !== undefined) {
          throw new Errors.InvalidField('body/delivery/destination must be omitted for Push: the service generates the topic');
        }
        return generateTopic(settings.TopicPrefix);
      }
      if (requested === undefined || topicRefusal(requested, policy) !== null) throw new Errors.TopicNotAllowed(requested ?? '');
      return requested;
    },

    subscribeUrl: (destination) => (baseUrl ? `${baseUrl}/${destination}` : null),
    subscribeUrlUnavailableReason: () => NOT_CONFIGURED,

    async deliver(requests, signal, onOutcome) {
      const stats: BatchStats = { interrupted: 0, unconfigured: 0 };
      const outcomes = await mapWithConcurrency(requests, inFlight, async (request, index) => {
        const outcome = await deliverOne(request, signal, stats).catch((err: unknown): DeliveryOutcome => {
          // Nothing above should throw; if it does, only this request pays, and it is retried.
          log.error({ err, ledgerId: request.ledgerId }, 'push delivery threw');
          return { kind: 'retry', reason: `push delivery error: ${(err as Error).message}` };
        });
        onOutcome?.(index, outcome);
        return outcome;
      });
      if (stats.interrupted > 0) log.info({ interrupted: stats.interrupted }, 'push deliveries interrupted by shutdown; they will be retried');
      if (stats.unconfigured > 0) {
        log.warn({ deliveries: stats.unconfigured }, 'push deliveries not made: no push server is configured; set Notifications__Push__BaseUrl (and Notifications__Push__PublishToken). They are retried with backoff.');
      }
      return outcomes;
    },

    close: async () => {
      await publisher?.close();
    },
  };
}

function answerFields(result: PublishResult): Record<string, unknown> {
  if (result.kind === 'answered') return { status: result.status, code: result.code };
  if (result.kind === 'network') return { errorCode: result.code };
  return { timeoutSeconds: result.kind === 'timeout' ? result.seconds : undefined };
}
