/**
 * The version of the plugin API this service offers. A manifest says which
 * version it was written for (`apiVersion`); without one it was written for
 * version 1. The API only grows: a plugin written for any version up to
 * this one works; one written for a later version stops the start, naming
 * the plugin and what to do.
 *
 * - 1: the API before versions were declared (feeds, targets, monitors,
 *   renderers, public views, queues, ports).
 * - 2: what people see of feeds and targets (presentation, urgent event
 *   types, time zone; displayName, destination, confirmation,
 *   subscribeLinkLabel, unavailableReason, subscribeSteps), migrations
 *   found by convention, itemStateStore, occurrenceKey and sequenceId,
 *   core settings without secrets.
 * - 3: delivery lanes (the `slowDown` outcome, a target's `concurrency()`,
 *   `defaultRatePerSecond`, the `lane` port, `urgent` and `missed`),
 *   places (`FeedGeometry`, an event's `geometry`, the map view), and
 *   a source per feed (`<Feed>__BaseUrl`, `<Feed>__ApiKey`; `sharedSource`
 *   for the utility's own feeds). A feed written for 1 or 2 keeps polling
 *   ExternalProvider__BaseUrl when it has no BaseUrl of its own (NPDEP004).
 * - 4: messages people trust: a feed's `endEventTypes`, `worthTelling`
 *   policy and `stillOutEventTypes`, a target's later outcomes
 *   (`ledger.reportOutcome`), `answersByReply` and the `stillOut` port.
 * - 5: a target's `languages()` (the ones it can present; others get
 *   English), and the kit's phone numbers (`subscriberNumber` for calls
 *   too), Twilio signatures and verification codes; an event's `confirmBy`
 *   (a notice only subscribers who confirm get, reminded daily until they do).
 */
export const PLUGIN_API_VERSION = 5;
