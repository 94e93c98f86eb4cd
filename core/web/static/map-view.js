// @ts-check
// Maps on the pages (Leaflet, served by this service from its installed package: no CDN). With a tile
// address (Map__TileUrl) the shapes lie on its map; without one they are drawn on a plain background with
// their areas' names, so the page still makes sense offline. Text from the service is always set as text.

import { pageWord } from './page-words.js';

/**
 * @typedef {{ tileUrl: string | null, attribution: string | null, center: [number, number] | null, zoom: number, geocoder: boolean, maxPlaces: number, maxRadiusMeters: number, defaultRadiusMeters: number }} MapSettings
 */

/** @returns {any} Leaflet, which the page loads before its own script. */
const leaflet = () => /** @type {any} */ (globalThis).L;

/** Whether maps can be drawn here (Leaflet loaded). */
export const mapsAvailable = () => Boolean(leaflet());

/**
 * A map in `host`: on the tiles when there are some, else a plain background.
 * @param {HTMLElement} host
 * @param {MapSettings} settings
 */
export function createMap(host, settings) {
  const L = leaflet();
  const map = L.map(host, { attributionControl: Boolean(settings.tileUrl), zoomSnap: 0.5, zoomControl: false });
  // The zoom buttons' names (Leaflet's are English) in the page's language.
  L.control.zoom({ zoomInTitle: pageWord('page.map.zoomIn', 'Zoom in'), zoomOutTitle: pageWord('page.map.zoomOut', 'Zoom out') }).addTo(map);
  if (settings.tileUrl) {
    // Leaflet writes the attribution as HTML: the operator's words are text, so they go in escaped.
    L.tileLayer(settings.tileUrl, { maxZoom: 18, attribution: asHtmlText(settings.attribution ?? '') }).addTo(map);
  } else {
    host.classList.add('map-plain');
  }
  map.setView(settings.center ?? [0, 0], settings.center ? settings.zoom : 2);
  return map;
}

/** Text as HTML that says just that text. @param {string} text */
export const asHtmlText = (text) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The shapes of a FeatureCollection, each labelled (its areas' names, always shown when there are no tiles).
 * @param {any} map
 * @param {any} collection
 * @param {(feature: any) => string} label
 * @param {boolean} plain
 */
export function drawShapes(map, collection, label, plain) {
  const L = leaflet();
  return L.geoJSON(collection, {
    style: () => ({ color: '#b45309', weight: 2, fillColor: '#f59e0b', fillOpacity: 0.35 }),
    onEachFeature: (/** @type {any} */ feature, /** @type {any} */ layer) => {
      layer.bindTooltip(asHtmlText(label(feature)), { permanent: plain, direction: 'center', className: 'map-label' });
    },
  }).addTo(map);
}

/**
 * A place: its point and the circle of its radius.
 * @param {any} map
 * @param {{ lat: number, lon: number, radiusMeters?: number, name?: string }} place
 */
export function drawPlace(map, place) {
  const L = leaflet();
  const group = L.layerGroup([
    L.circle([place.lat, place.lon], { radius: place.radiusMeters ?? 100, color: '#1d4ed8', weight: 2, fillOpacity: 0.15 }),
    L.circleMarker([place.lat, place.lon], { radius: 5, color: '#1d4ed8', fillOpacity: 1 }),
  ]).addTo(map);
  // Named on the map itself when there are no tiles (nothing else there says which is which).
  const plain = map.getContainer().classList.contains('map-plain');
  if (place.name)
    group.getLayers()[1].bindTooltip(asHtmlText(place.name), { direction: 'top', permanent: plain, className: 'map-label place-label', offset: [0, -6] });
  return group;
}

/**
 * Frames what was drawn (and keeps the settings' view when nothing was).
 * @param {any} map
 * @param {any[]} layers
 */
export function frame(map, layers) {
  const L = leaflet();
  const bounds = L.latLngBounds([]);
  for (const layer of layers) if (layer.getBounds) bounds.extend(layer.getBounds());
  if (bounds.isValid()) map.fitBounds(bounds.pad(0.2), { maxZoom: 15 });
}
