import type { FastifyBaseLogger } from 'fastify';
import type { Knex } from 'knex';
import { describeRejected, type PollReport } from '../feeds/poll-report.ts';
import type { NotificationPipeline } from '../plugin-api/pipeline-types.ts';
import { feedHealthEvent } from './feed-health-feed.ts';
import { nextFeedHealth, type FeedHealthSettings } from './feed-health-policy.ts';
import { lockFeedHealth, saveFeedHealth } from './feed-health-repository.ts';

export interface PollRecorderDependencies {
  readonly db: Knex;
  /** ProcessNotificationEvents: the alerts go through it, in the health row's transaction. */
  readonly pipeline: NotificationPipeline;
  readonly log: FastifyBaseLogger;
  readonly settings: FeedHealthSettings;
  /** Whether FeedHealth__AlertTopic is set (without it a transition is only logged). */
  readonly alerts: boolean;
  readonly feedName: (feedId: string) => string;
  /** The poll counters (metrics). */
  readonly countPoll: (report: PollReport) => void;
  /** Blanks configured secrets in an error message before it is stored or pushed. */
  readonly scrub: (text: string) => string;
}

/**
 * What core does with every poll's report (the feed monitor runner's
 * onPoll): counts it, logs a poll that found changes on one line, and
 * records the feed's health. The health row is locked while the policy
 * decides, so with several instances each transition happens once; its
 * alert is handed to the pipeline in the same transaction, so it exists
 * exactly when the transition does, and the ledger holds it once.
 */
export function createPollRecorder(deps: PollRecorderDependencies): (report: PollReport) => Promise<void> {
  return async (report) => {
    deps.countPoll(report);
    // The poll's own lines are the feed plugin's; the health transitions below are feed health's.
    const pollLog = deps.log.child({ plugin: report.pluginId, feed: report.feedId });
    const log = deps.log.child({ component: 'feed-health', feed: report.feedId });
    // One line per poll, whatever the number of items left out: the count, a few of them, and where to read the rest.
    if (report.rejected && report.rejected.length > 0) {
      pollLog.warn(
        { rejected: report.rejected.length, items: report.rejected.slice(0, 20).map(({ id, reason, detail }) => ({ id, reason, detail })) },
        `feed items left out: ${describeRejected(report.rejected, 3)}`,
      );
    }
    // Events may also come of an unchanged answer: stored items whose time came (an outage lasting long enough).
    if (Object.keys(report.eventsByType ?? {}).length > 0) {
      pollLog.info(
        {
          items: report.items,
          events: report.eventsByType,
          MatchedSubscriptionCount: report.matchedSubscriptionCount,
          ClaimedCount: report.claimedCount,
          durationMs: report.durationMs,
        },
        'feed changes handed over',
      );
    } else {
      pollLog.debug({ outcome: report.outcome, durationMs: report.durationMs }, 'feed polled');
    }
    const error = report.error && { kind: report.error.kind, message: deps.scrub(report.error.message) };
    const decision = await deps.db.transaction(async (trx) => {
      const decided = nextFeedHealth(await lockFeedHealth(trx, report.feedId), { ...report, error }, deps.settings);
      if (!decided) return null;
      await saveFeedHealth(trx, decided.next);
      if (decided.transition && deps.alerts) {
        const failedPolls = decided.transition === 'recovered' ? decided.failuresBefore : decided.next.consecutiveFailures;
        await deps.pipeline.processNotificationEvents([feedHealthEvent(decided.transition, decided.next, deps.feedName(report.feedId), failedPolls)], { trx });
      }
      return decided;
    });
    if (decision?.transition === 'turned-stale') {
      log.warn(
        { consecutiveFailures: decision.next.consecutiveFailures, lastSuccessAt: decision.next.lastSuccessAt, lastError: decision.next.lastError },
        `feed is stale: no poll has succeeded for ${decision.next.consecutiveFailures} polls`,
      );
    } else if (decision?.transition === 'recovered') {
      log.info({ failedPolls: decision.failuresBefore }, 'feed recovered');
    }
  };
}
