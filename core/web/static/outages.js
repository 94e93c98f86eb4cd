// @ts-check
// The public outage map: /outages. Every feed that offers shapes (GET /api/notification-feeds, hasMap) is
// fetched every 30 s from its outages.geojson; the map and the list under it say the same. Text from the
// service is always set as text.
import { callApi, loadCatalog } from './api-client.js';
import { byId, el, say } from './dom.js';
import { createMap, drawShapes, frame, mapsAvailable } from './map-view.js';
import { currentPageLanguage, installLanguageSwitch, onLanguageChange, pageWord } from './page-words.js';
import { dateTime } from './times.js';

const REFRESH_MS = 30_000;
const errorRegion = byId('outages-error');
/** @type {any} */
let map = null;
/** @type {any[]} */
let drawn = [];
/** @type {Array<{ feed: { id: string, displayName: string, timeZone: string }, collection: any }>} */
let latest = [];
let plain = true;

/**
 * One outage in words: where, since when, until when, how many customers.
 * @param {any} feature
 * @param {string} timeZone
 * @returns {string[]}
 */
export function outageLines(feature, timeZone) {
  const p = feature.properties;
  const when = (/** @type {string | null} */ iso) => (iso ? dateTime(new Date(iso), timeZone) : null);
  const lines = [];
  if (p.status === 'planned' || p.status === 'cancelled') {
    lines.push(`${pageWord('page.outages.planned', 'Planned')}: ${when(p.start)}${p.end ? ` – ${when(p.end)}` : ''}`);
    if (p.status === 'cancelled') lines.push(pageWord('page.outages.cancelled', 'Cancelled'));
  } else {
    lines.push(`${pageWord('page.outages.since', 'Since')}: ${when(p.start)}`);
    lines.push(`${pageWord('page.outages.estimate', 'Expected back')}: ${when(p.estimatedEnd) ?? pageWord('page.outages.noEstimate', 'no estimate yet')}`);
  }
  if (typeof p.customersAffected === 'number')
    lines.push(`${pageWord('page.outages.customers', 'Customers affected')}: ${p.customersAffected.toLocaleString()}`);
  return lines;
}

/** @param {any} feature */
const placeOf = (feature) => (feature.properties.areas.length ? feature.properties.areas.join(', ') : (feature.properties.feeder ?? feature.properties.id));

function show() {
  const items = latest.flatMap(({ feed, collection }) => collection.features.map((/** @type {any} */ feature) => ({ feed, feature })));
  byId('outages-list').replaceChildren(
    ...(items.length === 0
      ? [el('li', { class: 'empty' }, pageWord('page.outages.none', 'No outages now.'))]
      : items.map(({ feed, feature }) =>
          el(
            'li',
            {},
            el('strong', {}, placeOf(feature)),
            el('span', { class: 'hint' }, ` ${feed.displayName}`),
            ...outageLines(feature, feed.timeZone).map((line) => el('div', {}, line)),
          ),
        )),
  );
  if (!map) return;
  for (const layer of drawn) layer.remove();
  drawn = latest.map(({ collection }) => drawShapes(map, collection, placeOf, plain));
}

async function refresh() {
  const answers = await Promise.all(feeds.map((feed) => callApi('GET', `/api/notification-feeds/${encodeURIComponent(feed.id)}/outages.geojson`)));
  const failed = answers.find((answer) => !answer.ok);
  say(errorRegion, failed ? pageWord('page.outages.unreachable', 'The outages could not be read just now. The page tries again in 30 seconds.') : '');
  const first = latest.length === 0;
  latest = feeds.flatMap((feed, index) => (answers[index]?.ok ? [{ feed, collection: answers[index].body }] : []));
  show();
  if (first && map) frame(map, drawn);
  updatedAt = new Date();
  showUpdated();
}

/** When the outages were last read. @type {Date | null} */
let updatedAt = null;
/** In the feeds' time, as the outages' own times are (the first feed's, when they differ); in the page's words. */
function showUpdated() {
  if (updatedAt) byId('outages-updated').textContent = `${pageWord('page.outages.updated', 'Updated')}: ${dateTime(updatedAt, feeds[0]?.timeZone ?? 'UTC')}`;
}

/** The feeds that draw shapes, their names in the page's language. @type {Array<{ id: string, displayName: string, timeZone: string }>} */
let feeds = [];

async function start() {
  await installLanguageSwitch(/** @type {HTMLSelectElement} */ (byId('page-language')));
  // The feeds' names come in the language the reader switches to, with the page's own words.
  onLanguageChange((code) => {
    show();
    showUpdated();
    void loadCatalog(code).then((answer) => {
      if (!answer.ok || code !== currentPageLanguage()) return;
      const named = new Map(answer.body.map((/** @type {any} */ feed) => [feed.id, feed.displayName]));
      for (const feed of feeds) feed.displayName = named.get(feed.id) ?? feed.displayName;
      show();
    });
  });
  const [settings, catalog] = await Promise.all([callApi('GET', '/api/map'), loadCatalog(currentPageLanguage())]);
  if (!catalog.ok) return say(errorRegion, pageWord('page.outages.unreachable', 'The outages could not be read just now. The page tries again in 30 seconds.'));
  feeds = catalog.body.filter((/** @type {any} */ feed) => feed.hasMap);
  if (settings.ok && mapsAvailable()) {
    plain = !settings.body.tileUrl;
    map = createMap(byId('outages-map'), settings.body);
  } else byId('outages-map').hidden = true;
  await refresh();
  setInterval(() => void refresh(), REFRESH_MS);
}

void start();
