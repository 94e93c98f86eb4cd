import Type from 'typebox';

/**
 * Settings shapes several plugins share, so each is written (and checked)
 * once. A plugin spreads them into its own section schema.
 */

/** `Enabled`, `PollingIntervalSeconds`, `FeedTimeoutSeconds` and `MaxAnswerBytes` of a feed monitor, described for `what` ("power-outage feed"). */
export function feedMonitorSettings(what: string) {
  return {
    Enabled: Type.Boolean({ default: false, description: `Run the ${what} monitor.` }),
    PollingIntervalSeconds: Type.Integer({ minimum: 5, default: 60, description: `Poll period of the ${what}, in seconds.` }),
    FeedTimeoutSeconds: Type.Integer({ minimum: 1, default: 15, description: `HTTP timeout of the ${what} client, in seconds.` }),
    MaxAnswerBytes: Type.Integer({
      minimum: 1024,
      maximum: 1024 * 1024 * 1024,
      default: 10 * 1024 * 1024,
      description: `The most of one answer of the ${what} that is read, in bytes, chunked or not; past it the poll fails.`,
    }),
  };
}

/**
 * An IANA time-zone name (`UTC`, `Asia/Colombo`), default UTC. Checked at
 * start like any other value (format `time-zone`): a zone this Node.js does
 * not know stops the start with a message naming the key.
 */
export function TimeZoneSetting(description: string) {
  return Type.String({ default: 'UTC', format: 'time-zone', description });
}
