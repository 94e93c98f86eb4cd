// @ts-check
// "Where?": a person picks places on a map (tap it, or move it with the keyboard and press Enter for its
// centre), with the browser's location, or by searching an address (when the service has a geocoder),
// with a distance around each and a name of their own. Used by the subscribe page and the manage page.
import { callApi } from './api-client.js';
import { el, say } from './dom.js';
import { createMap, drawPlace, frame, mapsAvailable } from './map-view.js';
import { pageWord } from './page-words.js';
import { distanceWords, placeOf, placeWords, RADIUS_CHOICES, wrappedLongitude } from './places.js';

/** @typedef {import('./places.js').Place} Place */
/** @typedef {import('./map-view.js').MapSettings} MapSettings */

/** @type {Promise<MapSettings | null> | null} */
let settingsLoaded = null;
/** The service's map settings (GET /api/map), once. */
export const loadMapSettings = () => (settingsLoaded ??= callApi('GET', '/api/map').then((answer) => (answer.ok ? answer.body : null)));

/**
 * A place picker in `host` (a fieldset the page provides), its ids prefixed by `prefix`.
 * @param {HTMLElement} host
 * @param {string} prefix
 * @param {MapSettings} settings
 * @param {Place[]} [initial]
 */
export function createPlacePicker(host, prefix, settings, initial = []) {
  /** @type {Place[]} */
  let places = [...initial];
  /** @type {{ lat: number, lon: number } | null} */
  let point = null;
  const id = (/** @type {string} */ name) => `${prefix}-${name}`;
  const w = pageWord;

  const status = el('p', { class: 'hint', id: id('status'), 'aria-live': 'polite' });
  const list = el('ul', { class: 'place-list', id: id('list') });
  const mapHost = el('div', {
    class: 'map small',
    id: id('map'),
    role: 'application',
    'aria-label': w('page.where.mapLabel', 'Map: tap where you are; with the keyboard, move it with the arrow keys and press Enter to choose its centre'),
    tabindex: '0',
  });
  const radius = /** @type {HTMLSelectElement} */ (
    el(
      'select',
      { id: id('radius') },
      ...RADIUS_CHOICES.map((meters) =>
        el('option', { value: String(meters), ...(meters === settings.defaultRadiusMeters ? { selected: '' } : {}) }, distanceWords(meters)),
      ),
    )
  );
  const name = /** @type {HTMLInputElement} */ (
    el('input', { id: id('name'), type: 'text', maxlength: '60', autocomplete: 'off', placeholder: w('page.where.namePlaceholder', 'Home') })
  );
  const locate = el('button', { type: 'button', class: 'secondary', id: id('locate') }, w('page.where.useLocation', 'Use my location'));
  const add = el('button', { type: 'button', class: 'secondary', id: id('add') }, w('page.where.add', 'Add this place'));
  const address = /** @type {HTMLInputElement} */ (el('input', { id: id('address'), type: 'search', autocomplete: 'street-address', maxlength: '200' }));
  const find = el('button', { type: 'button', class: 'secondary', id: id('find') }, w('page.where.find', 'Find'));
  const results = el('ul', { class: 'place-results', id: id('results') });

  host.replaceChildren(
    el('legend', {}, w('page.where.legend', 'Where?'), ' ', el('span', { class: 'optional' }, w('page.optional', '(optional)'))),
    el(
      'p',
      { class: 'hint' },
      w('page.where.hint', 'Alerts come for outages within the distance you choose around each place. Tap the map, use your location, or search an address.'),
    ),
    ...(settings.tileUrl || !mapsAvailable()
      ? []
      : [
          el(
            'p',
            { class: 'hint' },
            w('page.where.hintPlain', 'This map has no streets on it: use your location or search an address, or tap near a place already chosen.'),
          ),
        ]),
    ...(mapsAvailable() ? [mapHost] : []),
    el('div', { class: 'actions' }, locate),
    ...(settings.geocoder
      ? [
          el(
            'div',
            { class: 'field' },
            el('label', { for: id('address') }, w('page.where.address', 'Address')),
            el('div', { class: 'inline' }, address, find),
            results,
          ),
        ]
      : []),
    el('div', { class: 'field' }, el('label', { for: id('radius') }, w('page.where.radius', 'Distance around it')), radius),
    el(
      'div',
      { class: 'field' },
      el('label', { for: id('name') }, w('page.where.name', 'What to call it'), ' ', el('span', { class: 'optional' }, w('page.optional', '(optional)'))),
      name,
    ),
    status,
    el('div', { class: 'actions' }, add),
    el('p', { class: 'hint' }, w('page.where.chosen', 'Places chosen:')),
    list,
  );

  /** @type {any} */
  let map = null;
  /** @type {any[]} */
  let drawn = [];
  /** @type {any} */
  let pending = null;
  if (mapsAvailable()) {
    map = createMap(mapHost, settings);
    map.on('click', (/** @type {any} */ event) => choose({ lat: event.latlng.lat, lon: wrappedLongitude(event.latlng.lng) }));
    mapHost.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter' && event.key !== ' ') return;
      event.preventDefault();
      const centre = map.getCenter();
      choose({ lat: centre.lat, lon: wrappedLongitude(centre.lng) });
    });
  }

  const radiusNow = () => Number(radius.value);
  /** @param {{ lat: number, lon: number }} chosen */
  function choose(chosen) {
    point = chosen;
    say(
      status,
      `${w('page.where.pointChosen', 'Chosen')}: ${placeWords(placeOf(chosen, radiusNow(), name.value), w)}. ${w('page.where.addHint', 'Add it, or choose another point.')}`,
    );
    if (map) {
      pending?.remove();
      pending = drawPlace(map, placeOf(chosen, radiusNow(), name.value));
      map.setView([chosen.lat, chosen.lon], Math.max(map.getZoom(), 14));
    }
  }

  function render() {
    list.replaceChildren(
      ...(places.length === 0
        ? [el('li', { class: 'empty' }, w('page.where.none', 'None: alerts come by the other choices above.'))]
        : places.map((place, index) =>
            el(
              'li',
              {},
              el('span', {}, placeWords(place, w)),
              ' ',
              button(`${w('page.where.remove', 'Remove')}`, `${w('page.where.remove', 'Remove')}: ${place.name ?? placeWords(place, w)}`, () => {
                places.splice(index, 1);
                render();
              }),
            ),
          )),
    );
    add.toggleAttribute('disabled', places.length >= settings.maxPlaces);
    if (!map) return;
    for (const layer of drawn) layer.remove();
    drawn = places.map((place) => drawPlace(map, place));
    if (drawn.length > 0)
      frame(
        map,
        drawn.flatMap((group) => group.getLayers()),
      );
  }

  /** Adds the chosen point as a place; false when there is none to add. */
  function addPoint() {
    if (!point || places.length >= settings.maxPlaces) return false;
    places.push(placeOf(point, radiusNow(), name.value));
    point = null;
    pending?.remove();
    pending = null;
    name.value = '';
    say(status, '');
    render();
    return true;
  }

  add.addEventListener('click', () => {
    if (!addPoint()) say(status, w('page.where.chooseFirst', 'Choose a point first: tap the map, use your location, or search an address.'));
  });
  radius.addEventListener('change', () => point && choose(point));
  locate.addEventListener('click', () => {
    if (!navigator.geolocation) return say(status, w('page.where.noLocation', 'This browser cannot tell where you are: tap the map or search an address.'));
    say(status, w('page.where.locating', 'Asking the browser where you are…'));
    navigator.geolocation.getCurrentPosition(
      (position) => choose({ lat: position.coords.latitude, lon: position.coords.longitude }),
      () =>
        say(
          status,
          w('page.where.locationRefused', 'The browser did not say where you are (it was not allowed, or does not know): tap the map or search an address.'),
        ),
      { timeout: 15_000, maximumAge: 60_000 },
    );
  });
  const search = async () => {
    const query = address.value.trim();
    if (query.length < 3) return say(status, w('page.where.addressShort', 'Type at least three letters of the address.'));
    say(status, w('page.where.searching', 'Searching…'));
    const answer = await callApi('GET', `/api/geocode?q=${encodeURIComponent(query)}`);
    if (!answer.ok) return say(status, w('page.where.searchFailed', 'The address search did not answer just now: tap the map or use your location.'));
    /** @type {Array<{ name: string, lat: number, lon: number }>} */
    const found = answer.body;
    say(
      status,
      found.length === 0
        ? w('page.where.notFound', 'No place of that name was found: try another spelling, or tap the map.')
        : w('page.where.pick', 'Choose one of the places found:'),
    );
    results.replaceChildren(
      ...found.map((place) =>
        el(
          'li',
          {},
          button(place.name, place.name, () => {
            choose(place);
            if (!name.value) name.value = '';
          }),
        ),
      ),
    );
  };
  find.addEventListener('click', () => void search());
  address.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      void search();
    }
  });
  render();

  return {
    /** The places, the chosen point included when it was not added yet. */
    places() {
      addPoint();
      return [...places];
    },
    /** @param {Place[]} next */
    setPlaces(next) {
      places = [...next];
      render();
    },
    /** Lays the map out again (after its fieldset was hidden). */
    refresh() {
      map?.invalidateSize();
      render();
    },
  };
}

/**
 * @param {string} text
 * @param {string} label
 * @param {() => void} onClick
 */
function button(text, label, onClick) {
  const element = el('button', { type: 'button', class: 'secondary small', 'aria-label': label }, text);
  element.addEventListener('click', onClick);
  return element;
}
