import type { NotificationEvent, TellVerdict } from '../../plugin-api/feed-types.ts';
import type { SkipCriterion } from '../../ledger/index.ts';
import type { FeedPluginManifest, SectionsConfig } from '../../plugin-api/manifest.ts';

/** The window a subscriber's budget of messages per item is counted in. */
export const BUDGET_WINDOW_HOURS = 24;

/** What decides whether a claimed row of an event that follows earlier ones of its item is sent. */
export interface TellingRules {
  /** `NotificationPipeline__MaxMessagesPerItem`: messages per subscription and item in BUDGET_WINDOW_HOURS. */
  readonly maxPerItem: number;
  /** The feed's types that end an item: they always go. */
  readonly endTypes: ReadonlySet<string>;
  /** The feed's own policy (its manifest `worthTelling`, bound to its config), if it has one. */
  readonly worthTelling?: (event: NotificationEvent, lastTold: NotificationEvent | undefined) => TellVerdict;
}

/** What the ledger knows the subscriber was told of the item before. */
export interface ToldOfItem {
  /** Messages about the item told (or on their way) in the window. */
  readonly count: number;
  readonly lastTold: NotificationEvent | undefined;
}

/**
 * Why a claimed row is not sent, or null when it is: the item's end and a
 * notice to confirm always go; past the budget nothing else does; then the feed's policy decides.
 * Pure: the ledger's memory is input.
 */
export function whyNotTell(event: NotificationEvent, told: ToldOfItem, rules: TellingRules): { because: SkipCriterion; reason: string } | null {
  // The item's end, and a notice that must be confirmed (what it asks must reach the person).
  if (rules.endTypes.has(event.eventType) || event.confirmBy !== undefined) return null;
  if (told.count >= rules.maxPerItem) {
    return { because: 'budget', reason: `over budget: ${told.count} messages about this item in ${BUDGET_WINDOW_HOURS} hours (at most ${rules.maxPerItem})` };
  }
  const verdict = rules.worthTelling?.(event, told.lastTold) ?? { tell: true };
  return verdict.tell ? null : { because: 'feed', reason: verdict.reason };
}

/** A feed's telling rules: its end types, its policy bound to its config, and the budget core sets. */
export function tellingRulesOf(manifest: Pick<FeedPluginManifest, 'endEventTypes' | 'worthTelling'>, config: unknown, maxPerItem: number): TellingRules {
  const policy = manifest.worthTelling;
  const feedConfig = config as SectionsConfig<Record<string, never>>;
  return {
    maxPerItem,
    endTypes: new Set(manifest.endEventTypes ?? []),
    ...(policy ? { worthTelling: (event: NotificationEvent, lastTold: NotificationEvent | undefined) => policy(event, lastTold, feedConfig) } : {}),
  };
}
