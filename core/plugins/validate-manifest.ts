import { FILTER_FIELD_ID, isLegacyFilterId, LEGACY_FILTER_FIELDS, MAX_FILTER_FIELDS } from './filter-fields.ts';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { isFeedAnswer } from '../plugin-api/feed-answer.ts';
import { isFeedMonitor } from '../plugin-api/feed-monitor.ts';
import { FILTER_MATCHES, FILTERABLE_FIELDS } from '../plugin-api/feed-types.ts';
import type { PluginManifest } from '../plugin-api/manifest.ts';
import { PLUGIN_API_VERSION } from '../plugin-api/api-version.ts';
import { validatePublicViews } from './validate-public-views.ts';
import { isFn, isRecord } from './value-kinds.ts';

const PLUGIN_ID = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const FEED_ID = /^[a-z0-9-]+(\.[a-z0-9-]+)+$/;
const EVENT_TYPE = /^[A-Z][A-Za-z0-9]*$/;
const TOPIC = /^[-_A-Za-z0-9]{1,64}$/;
const SECTION_PATH = /^[A-Za-z][A-Za-z0-9]*(:[A-Za-z][A-Za-z0-9]*)*$/;

/**
 * Checks a module's `manifest` export. Returns the problems found, each a
 * sentence; an empty list means the manifest can be wired.
 */
export function validateManifest(folder: string, manifest: unknown): string[] {
  if (!isRecord(manifest)) return ['index.ts does not export `manifest` (use defineFeedPlugin or defineDeliveryPlugin)'];
  const m = manifest as Partial<PluginManifest> & Record<string, unknown>;
  const problems: string[] = [];
  if (m.apiVersion !== undefined) {
    if (!Number.isInteger(m.apiVersion) || (m.apiVersion as number) < 1) problems.push('apiVersion must be a whole number from 1');
    else if ((m.apiVersion as number) > PLUGIN_API_VERSION) {
      // Nothing else is worth saying: a later API's manifest may mean things this service cannot read.
      return [
        `it was written for plugin API version ${m.apiVersion}, and this service offers version ${PLUGIN_API_VERSION}: ` +
          `update the service, or install a version of the plugin written for API version ${PLUGIN_API_VERSION} or earlier`,
      ];
    }
  }
  if (m.kind !== 'feed' && m.kind !== 'delivery') problems.push('kind must be "feed" or "delivery"');
  if (typeof m.id !== 'string' || !PLUGIN_ID.test(m.id)) problems.push('id must be kebab-case');
  else if (m.id !== folder) problems.push(`id "${m.id}" must equal the folder name`);
  if (!isRecord(m.config)) problems.push('config must be an object of section schemas (may be empty)');
  else {
    for (const [path, schema] of Object.entries(m.config)) {
      if (!SECTION_PATH.test(path)) problems.push(`config section "${path}" is not a valid path (Name or Name:Sub)`);
      if (!isRecord(schema) || schema.type !== 'object') problems.push(`config section "${path}" must be an object schema`);
    }
  }
  if (m.migrationsDir !== undefined) {
    if (typeof m.migrationsDir !== 'string' || !existsSync(m.migrationsDir) || !statSync(m.migrationsDir).isDirectory()) {
      problems.push('migrationsDir must be an existing folder');
    }
  }
  if (m.topics !== undefined) {
    const entries = [...(m.topics.topics ?? []), ...(m.topics.prefixes ?? [])];
    for (const entry of entries) if (typeof entry !== 'string' || !TOPIC.test(entry)) problems.push(`topic entry "${entry}" is not a valid topic name`);
  }
  if (m.workers !== undefined && !isFn(m.workers)) problems.push('workers must be a function');
  if (m.checkConfig !== undefined && !isFn(m.checkConfig)) problems.push('checkConfig must be a function');
  if (m.routes !== undefined && !isFn(m.routes)) problems.push('routes must be a function');
  if (m.setup !== undefined) {
    if (!isFn(m.setup)) problems.push('setup must be a function');
    const old = ['routes', 'workers', 'createTarget'].filter((hook) => m[hook] !== undefined);
    if (old.length > 0) problems.push(`setup(context) returns the routes, workers and target: declare ${old.join(', ')} there, not on the manifest too`);
  }
  if (m.kind === 'feed') problems.push(...validateFeedParts(m as Record<string, unknown>));
  if (m.kind === 'delivery') {
    if (typeof m.provider !== 'string' || !/^[A-Z][A-Za-z]+$/.test(m.provider)) problems.push('provider must be a PascalCase name');
    if (m.createTarget !== undefined && !isFn(m.createTarget)) problems.push('createTarget must be a function');
    const rate = m.defaultRatePerSecond;
    if (rate !== undefined && (typeof rate !== 'number' || !Number.isFinite(rate) || rate < 0))
      problems.push('defaultRatePerSecond must be a number of messages a second, 0 or more');
    problems.push(...validateTargetPresentation(m as Record<string, unknown>));
    problems.push(...validateDeclaredProperties('deliveryProperties', m.deliveryProperties, ['provider', 'destination']));
    problems.push(...validateDeclaredProperties('createdProperties', m.createdProperties, CREATED_FIELDS));
  }
  return problems;
}

/** What core's create answer holds: a target's own fields may not take these names. */
const CREATED_FIELDS = [
  'publicId',
  'displayName',
  'feedId',
  'filter',
  'delivery',
  'scope',
  'isActive',
  'subscribeUrl',
  'subscribeUrlUnavailableReason',
  'subscribeSteps',
  'createdAt',
  'manageToken',
];

/** `{ name: schema }` with camelCase names core does not use itself. */
function validateDeclaredProperties(field: string, declared: unknown, reserved: readonly string[]): string[] {
  if (declared === undefined) return [];
  if (!isRecord(declared)) return [`${field} must be an object of JSON schemas by property name`];
  return Object.entries(declared).flatMap(([name, schema]) => {
    if (!/^[a-z][A-Za-z0-9]{0,63}$/.test(name)) return [`${field}.${name}: a property name is camelCase`];
    if (reserved.includes(name)) return [`${field}.${name}: core already has this property`];
    return isRecord(schema) ? [] : [`${field}.${name} must be a JSON schema (Type.…)`];
  });
}

const INPUT_TYPES = ['email', 'tel', 'url', 'text'];

/** A target's `displayName`, `destination` and `confirmation`: what the providers list and the pages show. */
function validateTargetPresentation(m: Record<string, unknown>): string[] {
  const problems: string[] = [];
  if (m.displayName !== undefined && (typeof m.displayName !== 'string' || m.displayName.trim() === '')) problems.push('displayName must be text');
  const destination = m.destination;
  if (destination !== undefined) {
    if (!isRecord(destination) || typeof destination.required !== 'boolean' || typeof destination.description !== 'string') {
      problems.push('destination needs required (true or false) and a description (text)');
    } else if (destination.inputType !== undefined && !INPUT_TYPES.includes(destination.inputType as string)) {
      problems.push(`destination.inputType must be one of ${INPUT_TYPES.join(', ')}`);
    }
  }
  const words = m.confirmation;
  if (words !== undefined && (!isRecord(words) || typeof words.heading !== 'string' || typeof words.text !== 'string'))
    problems.push('confirmation needs a heading and a text');
  else if (words !== undefined && words.codeUrl !== undefined && (typeof words.codeUrl !== 'string' || !/^\/(?![/\\])\S*\{publicId\}\S*$/.test(words.codeUrl)))
    problems.push('confirmation.codeUrl must be a path of this service that names {publicId}');
  if (m.subscribeLinkLabel !== undefined && typeof m.subscribeLinkLabel !== 'string') problems.push('subscribeLinkLabel must be text');
  return problems;
}

function validateFeedParts(m: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const feed = m.feed as Record<string, unknown> | undefined;
  if (!isRecord(feed)) return ['feed (the catalog definition) is required'];
  if (typeof feed.id !== 'string' || !FEED_ID.test(feed.id)) problems.push('feed.id must be a dotted id such as utility.power-outages');
  if (typeof feed.displayName !== 'string' || feed.displayName.trim() === '') problems.push('feed.displayName is required');
  const eventTypes = Array.isArray(feed.eventTypes) ? feed.eventTypes : [];
  if (eventTypes.length === 0) problems.push('feed.eventTypes must list at least one event type');
  if (new Set(eventTypes).size !== eventTypes.length) problems.push('feed.eventTypes has duplicates');
  for (const type of eventTypes) if (typeof type !== 'string' || !EVENT_TYPE.test(type)) problems.push(`event type "${type}" must be PascalCase`);
  if (feed.filterableFields !== undefined) {
    const fields = Array.isArray(feed.filterableFields) ? feed.filterableFields : null;
    if (!fields) problems.push('feed.filterableFields must be a list');
    else
      for (const field of fields)
        if (!FILTERABLE_FIELDS.includes(field)) problems.push(`filterable field "${field}" is not one of ${FILTERABLE_FIELDS.join(', ')}`);
  }
  problems.push(...validateFilterFields(feed.filterFields));
  if (!isFeedMonitor(m.monitor)) problems.push('monitor is required (declare it with defineFeedMonitor)');
  else if (!isFeedAnswer(m.monitor.answer) && !isFn(m.monitor.parse)) problems.push('monitor needs answer (declare it with defineFeedAnswer) or parse');
  const renderers = Array.isArray(m.renderers) ? m.renderers : [];
  if (!Array.isArray(m.renderers)) problems.push('renderers must be a list');
  for (const type of eventTypes) {
    const covering = renderers.filter((r: { canRender?: (t: string) => boolean }) => r?.canRender?.(type));
    if (covering.length === 0) problems.push(`no renderer for event type ${type}`);
    if (covering.length > 1) problems.push(`${covering.length} renderers claim event type ${type}`);
  }
  const unknownTypes = (...lists: unknown[]) => lists.flat(2).filter((type) => !eventTypes.includes(type));
  for (const type of unknownTypes(m.coalescedEventTypes ?? [])) problems.push(`coalescedEventTypes: ${type} is not an event type of the feed`);
  const supersedes = m.supersedes ?? {};
  if (!isRecord(supersedes)) problems.push('supersedes must map event types to lists of event types');
  else
    for (const [type, types] of Object.entries(supersedes))
      for (const name of unknownTypes(type, types)) problems.push(`supersedes: ${name} is not an event type of the feed`);
  const offer = m.systemSubscription as Record<string, unknown> | undefined;
  if (offer !== undefined && (!isRecord(offer) || typeof offer.name !== 'string' || typeof offer.pushTopic !== 'string' || !TOPIC.test(offer.pushTopic))) {
    problems.push('systemSubscription needs a name and a valid pushTopic');
  }
  problems.push(...validatePublicViews(m.publicViews, eventTypes));
  problems.push(...validatePresentation(m.presentation, eventTypes));
  for (const type of unknownTypes(m.urgentEventTypes ?? [])) problems.push(`urgentEventTypes: ${type} is not an event type of the feed`);
  for (const type of unknownTypes(m.endEventTypes ?? [])) problems.push(`endEventTypes: ${type} is not an event type of the feed`);
  for (const type of unknownTypes(m.stillOutEventTypes ?? [])) problems.push(`stillOutEventTypes: ${type} is not an event type of the feed`);
  if (m.worthTelling !== undefined && !isFn(m.worthTelling)) problems.push('worthTelling must be a function of the event, the last event told and the config');
  if (m.timeZone !== undefined && !isFn(m.timeZone)) problems.push('timeZone must be a function of the config');
  if (m.ongoing !== undefined && !isFn(m.ongoing)) problems.push('ongoing must be a function of the feed context');
  if (m.announcement !== undefined && !isFn(m.announcement)) problems.push('announcement must be a function of the announcement input');
  return problems;
}

const COLOUR = /^#[0-9a-fA-F]{6}$/;

/** A feed's `presentation`: labels and hints of its own event types, colours as `#rrggbb`. */
function validatePresentation(presentation: unknown, eventTypes: readonly unknown[]): string[] {
  if (presentation === undefined) return [];
  if (!isRecord(presentation)) return ['presentation must be an object'];
  const problems: string[] = [];
  if (presentation.accent !== undefined && !(typeof presentation.accent === 'string' && COLOUR.test(presentation.accent)))
    problems.push('presentation.accent must be a colour #rrggbb');
  const types = presentation.eventTypes ?? {};
  if (!isRecord(types)) return [...problems, 'presentation.eventTypes must map event types to { label, hint }'];
  for (const [type, entry] of Object.entries(types)) {
    if (!eventTypes.includes(type)) problems.push(`presentation.eventTypes.${type}: not an event type of the feed`);
    if (!isRecord(entry) || typeof entry.label !== 'string' || entry.label.trim() === '' || typeof entry.hint !== 'string') {
      problems.push(`presentation.eventTypes.${type} needs a label and a hint (text)`);
      continue;
    }
    if (entry.accent !== undefined && !(typeof entry.accent === 'string' && COLOUR.test(entry.accent)))
      problems.push(`presentation.eventTypes.${type}.accent must be a colour #rrggbb`);
  }
  return problems;
}

/** Migration file names of a folder (knex records names only, so they must be unique service-wide). */
export function migrationFiles(dir: string): string[] {
  return readdirSync(dir).filter((name) => /\.(ts|js)$/.test(name) && !name.endsWith('.d.ts'));
}

/** A feed's filter fields (feed.filterFields): ids, words and match kinds. */
function validateFilterFields(value: unknown): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return ['feed.filterFields must be a list'];
  const problems: string[] = [];
  if (value.length > MAX_FILTER_FIELDS) problems.push(`feed.filterFields may hold at most ${MAX_FILTER_FIELDS} fields`);
  const seen = new Set<string>();
  value.forEach((field: unknown, index) => {
    const at = `feed.filterFields[${index}]`;
    if (!isRecord(field)) {
      problems.push(`${at} must be an object`);
      return;
    }
    const id = field.id;
    if (typeof id !== 'string' || !FILTER_FIELD_ID.test(id)) problems.push(`${at}.id must be camelCase, up to 40 characters (route, zoneCode)`);
    else if (seen.has(id)) problems.push(`${at}.id "${id}" is declared twice`);
    else seen.add(id);
    const line = (key: string, max: number, required: boolean) => {
      const text = field[key];
      if (text === undefined && !required) return;
      if (typeof text !== 'string' || text.trim() === '' || text.length > max || /[\u0000-\u001f\u007f]/.test(text))
        problems.push(`${at}.${key} must be one line of text, up to ${max} characters`);
    };
    line('label', 60, true);
    line('hint', 200, false);
    line('example', 100, false);
    if (!FILTER_MATCHES.includes(field.match as never)) problems.push(`${at}.match must be one of ${FILTER_MATCHES.join(', ')}`);
    else if (typeof id === 'string' && isLegacyFilterId(id) && LEGACY_FILTER_FIELDS[id].match !== field.match) {
      problems.push(`${at}: ${id} is matched as ${LEGACY_FILTER_FIELDS[id].match}, as it always was`);
    }
  });
  return problems;
}
