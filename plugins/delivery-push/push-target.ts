import {
  createTranslator,
  Errors,
  Limiter,
  loadMessages,
  randomToken,
  type DeliveryOutcome,
  type DeliveryPluginContext,
  type DeliveryRequest,
  type DeliveryTarget,
} from '#plugin-api';
import { AnswerTime, depthPerConnection, pump } from './concurrency.ts';
import type { pushConfig } from './config.ts';
import { buildPublishBody } from './publish-payload.ts';
import { outcomeOf, type PublishResult } from './publish-result.ts';
import { createPublisher, type Publisher } from './publisher.ts';
import { createThreadedPublisher } from './threaded-publisher.ts';
import { composeTopicPolicy, topicRefusal, type TopicPolicy } from './topic-policy.ts';

export type PushContext = DeliveryPluginContext<typeof pushConfig>;

interface BatchStats {
  interrupted: number;
  unconfigured: number;
  notMade: NotMade;
}

/** Samples of the deliveries behind one summary line: enough to look them up, never a list as long as the batch. */
const SAMPLE = 5;

/**
 * The deliveries of one batch that were not made, by reason: one warning
 * per reason per batch, with the count and a few ledger ids and topics,
 * never one per delivery (a push server down during a fan-out to 100,000
 * would otherwise write 100,000 lines per attempt). Each delivery's own
 * line is at debug level, and its reason is in the ledger.
 */
class NotMade {
  readonly #byReason = new Map<string, { fields: Record<string, unknown>; deliveries: number; ledgerIds: number[]; topics: Set<string> }>();

  add(reason: string, fields: Record<string, unknown>, request: DeliveryRequest): void {
    let entry = this.#byReason.get(reason);
    if (!entry) this.#byReason.set(reason, (entry = { fields, deliveries: 0, ledgerIds: [], topics: new Set() }));
    entry.deliveries += 1;
    if (entry.ledgerIds.length < SAMPLE) entry.ledgerIds.push(request.ledgerId);
    if (entry.topics.size < SAMPLE) entry.topics.add(request.subscription.destination);
  }

  log(log: PushContext['log']): void {
    for (const [reason, { fields, deliveries, ledgerIds, topics }] of this.#byReason) {
      log.warn({ ...fields, deliveries, ledgerIds, topics: [...topics] }, `push deliveries not made: ${reason}`);
    }
  }
}

/** Why there is no subscribe link and no delivery: said to clients (create answer) and in the log. */
const NOT_CONFIGURED =
  'No push server is configured (Notifications__Push__BaseUrl is unset), so there is no subscribe link yet and push notifications wait until one is set.';

/** The server the ntfy app subscribes to unless told otherwise. */
const NTFY_SH = 'https://ntfy.sh';

const ownWords = loadMessages(new URL('./locales/', import.meta.url));

/** What a person does in the ntfy app with a topic of this server, in `language` (English by default). */
export function ntfyAppSteps(server: string, topic: string, language?: string): string[] {
  const t = createTranslator(ownWords, language);
  return [t('steps.install'), t('steps.topic', { topic }), ...(server === NTFY_SH ? [] : [t('steps.server', { server })]), t('steps.subscribe')];
}

/** A topic of the most characters a topic may have: a body built around it fits around any topic. */
const LONGEST_TOPIC = 'x'.repeat(64);

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
  const publisherOptions = baseUrl && { baseUrl, token: settings.PublishToken, timeoutMs: settings.TimeoutSeconds * 1000, connections: settings.Connections };
  const publisher: Publisher | undefined = publisherOptions
    ? settings.Threads > 0
      ? createThreadedPublisher(publisherOptions, settings.Threads)
      : createPublisher(publisherOptions)
    : undefined;
  if (!publisher) log.warn('Notifications__Push__BaseUrl is not set: push deliveries wait for retry until it is');
  // One bound for every batch the lane works at once (the lane hands no more than `concurrency()` anyway).
  const inFlight = new Limiter(settings.Connections * settings.RequestsPerConnection);
  // How fast the server answers lately: how many may wait behind each other on a connection follows it.
  const answerTime = new AnswerTime();
  const timeoutMs = settings.TimeoutSeconds * 1000;

  /**
   * The JSON of a rendering's publish body after its topic, made once per
   * rendering (every subscriber of an event shares it): each publish is then
   * `{"topic":"<topic>"` and this. Null with the reason when no body can be
   * made of it (sent now or never, it fails the same way).
   */
  const tails = new WeakMap<object, { tail: string } | { error: string }>();
  function tailOf(request: DeliveryRequest): { tail: string } | { error: string } {
    let made = tails.get(request.rendered);
    if (made === undefined) {
      try {
        // The longest topic there can be, so a body that fits with it fits with any.
        const json = JSON.stringify(buildPublishBody(LONGEST_TOPIC, request.event.feedId, request.rendered, request.event.itemKey ?? request.event.sourceKey));
        made = { tail: json.slice(`{"topic":"${LONGEST_TOPIC}"`.length) };
      } catch (err) {
        made = { error: `cannot build the push message: ${(err as Error).message}` };
      }
      // Keyed by the rendering's identity: the requests of one event share it.
      tails.set(request.rendered, made);
    }
    return made;
  }

  /** What can be said of a request before any publish: refused by the topic policy, or no message can be made of it. */
  function refusalOf(request: DeliveryRequest, stats: BatchStats): DeliveryOutcome | string {
    const topic = request.subscription.destination;
    const refusal = topicRefusal(topic, policy);
    if (refusal !== null) {
      const reason = `topic "${topic}" refused by the topic policy: ${refusal}`;
      log.debug({ ledgerId: request.ledgerId, attempt: request.attempt, topic, outcome: 'failed' }, reason);
      stats.notMade.add(`refused by the topic policy: ${refusal}`, { outcome: 'failed' }, request);
      return { kind: 'failed', reason };
    }
    const made = tailOf(request);
    if ('error' in made) {
      // A stored rendering that cannot be sent now never will be.
      log.debug({ ledgerId: request.ledgerId, attempt: request.attempt, topic, outcome: 'failed' }, made.error);
      stats.notMade.add(made.error, { outcome: 'failed' }, request);
      return { kind: 'failed', reason: made.error };
    }
    // Topics are of the topic alphabet (checked above): nothing in one needs escaping.
    return `{"topic":"${topic}"${made.tail}`;
  }

  /** A publish's answer judged; what was not made is counted for the batch's summary lines. */
  function judged(request: DeliveryRequest, result: PublishResult, stats: BatchStats): DeliveryOutcome {
    if (result.kind === 'answered' && result.wireMs !== undefined) answerTime.add(result.wireMs);
    else if (result.kind === 'timeout') answerTime.add(timeoutMs);
    const outcome = outcomeOf(result, context.now());
    if (result.kind === 'aborted') stats.interrupted++;
    else if (outcome.kind !== 'delivered') {
      // The reason holds the status and the server's code: never the token or the message.
      const fields = answerFields(result);
      log.debug(
        { ledgerId: request.ledgerId, attempt: request.attempt, topic: request.subscription.destination, outcome: outcome.kind, ...fields },
        `push delivery not made: ${outcome.reason}`,
      );
      stats.notMade.add(outcome.reason, { outcome: outcome.kind, ...fields }, request);
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
    unavailableReason: () => (publisher ? undefined : NOT_CONFIGURED),
    subscribeSteps: (destination, language) => ntfyAppSteps(baseUrl ?? '', destination, language),
    concurrency: () => settings.Connections * depthPerConnection(answerTime.averageMs, timeoutMs, settings.RequestsPerConnection),

    async deliver(requests, signal, onOutcome) {
      const stats: BatchStats = { interrupted: 0, unconfigured: 0, notMade: new NotMade() };
      const outcomes = new Array<DeliveryOutcome>(requests.length);
      const finish = (index: number, outcome: DeliveryOutcome) => {
        outcomes[index] = outcome;
        onOutcome?.(index, outcome);
      };
      // Every request is judged or published, at most `inFlight` at once across batches; one promise for the batch.
      await pump(requests.length, inFlight, (index, finished) => {
        const request = requests[index];
        const body = refusalOf(request, stats);
        if (typeof body !== 'string') {
          finish(index, body);
          return finished();
        }
        if (!publisher) {
          stats.unconfigured++;
          finish(index, { kind: 'retry', reason: 'push server not configured (Notifications__Push__BaseUrl is unset)' });
          return finished();
        }
        publisher.send(body, signal, (result) => {
          try {
            finish(index, judged(request, result, stats));
          } catch (err) {
            // Nothing above should throw; if it does, only this request pays, and it is retried.
            log.error({ err, ledgerId: request.ledgerId }, 'push delivery threw');
            finish(index, { kind: 'retry', reason: `push delivery error: ${(err as Error).message}` });
          }
          finished();
        });
      });
      stats.notMade.log(log);
      if (stats.interrupted > 0) log.info({ interrupted: stats.interrupted }, 'push deliveries interrupted by shutdown; they will be retried');
      if (stats.unconfigured > 0) {
        log.warn(
          { deliveries: stats.unconfigured },
          'push deliveries not made: no push server is configured; set Notifications__Push__BaseUrl (and Notifications__Push__PublishToken). They are retried with backoff.',
        );
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
