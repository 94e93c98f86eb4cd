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
}
