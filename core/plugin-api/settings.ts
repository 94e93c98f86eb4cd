import Type from 'typebox';

/**
 * Settings shapes several plugins share, so each is written (and checked)
 * once. A plugin spreads them into its own section schema.
 */

/**
 * `Enabled`, `PollingIntervalSeconds`, `FeedTimeoutSeconds`,
 * `MaxAnswerBytes`, and the feed's source (`BaseUrl`, `ApiKey`: its own,
 * sent nowhere else) of a feed monitor, described for `what` ("transit
 * disruptions feed"). `sharedSource`: the descriptions say an unset source
 * falls back to ExternalProvider__* (for a monitor with `sharedSource`).
 */
export function feedMonitorSettings(what: string, options: { sharedSource?: boolean } = {}) {
  const fallback = options.sharedSource ? ' Unset: ExternalProvider__BaseUrl (with ExternalProvider__ApiKey).' : '';
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
    BaseUrl: Type.Optional(Type.String({ format: 'uri', description: `Base address of the ${what}'s API: it polls <BaseUrl>/<its path>.${fallback}` })),
    ApiKey: Type.Optional(
      Type.String({
        'x-secret': true,
        description: `Key sent as X-Api-Key to the ${what}'s BaseUrl, and nowhere else. Unset: no key${options.sharedSource ? ' (or ExternalProvider__ApiKey, when BaseUrl is unset too)' : ''}.`,
      }),
    ),
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
