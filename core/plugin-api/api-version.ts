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
 */
export const PLUGIN_API_VERSION = 2;
