/**
 * What a subscriber decides for one subscription (`preferences`): stored
 * with it, changed by PATCH, read by core (quiet hours) and by targets.
 */
export interface SubscriberPreferences {
  /** Non-urgent alerts wait for the end of these local hours, then come as one catch-up message. */
  readonly quietHours?: {
    /** `HH:MM`, local. */
    readonly start: string;
    /** `HH:MM`, local; before `start` the window wraps midnight. */
    readonly end: string;
    /** IANA zone; default `timeZone` below, else the feed's zone. */
    readonly timeZone?: string;
  };
  /** IANA zone the subscriber's times are written in; default the feed's zone. */
  readonly timeZone?: string;
  /** The language of everything sent for this subscription: a code of LOCALES (`en`, `si`, `ta`); default English. */
  readonly language?: string;
  /**
   * The person must confirm each urgent alert (a link or button, YES by
   * text, 1 in a call). Set by an admin only, never by the subscriber.
   */
  readonly confirm?: boolean;
  /** Where an unconfirmed alert goes next, step by step (set like `confirm`); then the console's "Not confirmed" list. */
  readonly escalation?: readonly EscalationStep[];
}

/** One step of an escalation: a message by `provider` to `destination` (in that provider's form), `afterMinutes` after the step before. */
export interface EscalationStep {
  readonly provider: string;
  readonly destination: string;
  readonly afterMinutes: number;
}
