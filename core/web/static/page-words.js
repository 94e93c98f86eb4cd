// @ts-check
// The pages' own words in the reader's language: the browser's (the order it sends as Accept-Language)
// unless the reader chose another with the switch (kept in this browser). Elements marked data-i18n get
// their text in that language (data-i18n-label: their aria-label); English puts the page's own text back. Text is
// set as text, never HTML.
import { loadLocales } from './api-client.js';
import { pageLanguage } from './form-values.js';

const STORED = 'np-page-language';
/** @type {WeakMap<Element, Node[]>} */
const original = new WeakMap();
/** @type {WeakMap<Element, string>} */
const originalLabel = new WeakMap();
/** @type {string} */
let current = 'en';
/** @type {Record<string, string> | null} */
let currentWords = null;

/**
 * A word of the pages in the reader's language (core's messages `page.*`), or the English given.
 * @param {string} key
 * @param {string} english
 */
export const pageWord = (key, english) => currentWords?.[key] ?? english;

/** The language the page is in now (the alerts' language starts from it). */
export const currentPageLanguage = () => current;

/** @param {string} code */
async function apply(code) {
  /** @type {Record<string, string> | null} */
  let words = null;
  if (code !== 'en') {
    const response = await fetch(`/web/words/${encodeURIComponent(code)}`, { headers: { accept: 'application/json' } }).catch(() => null);
    if (!response?.ok) return;
    words = await response.json();
  }
  for (const element of document.querySelectorAll('[data-i18n]')) {
    if (!original.has(element))
      original.set(
        element,
        [...element.childNodes].map((node) => node.cloneNode(true)),
      );
    const text = words?.[element.getAttribute('data-i18n') ?? ''];
    if (text) element.textContent = text;
    else element.replaceChildren(...(original.get(element) ?? []).map((node) => node.cloneNode(true)));
  }
  // A name only a screen reader says (a map's aria-label): data-i18n-label names its key.
  for (const element of document.querySelectorAll('[data-i18n-label]')) {
    if (!originalLabel.has(element)) originalLabel.set(element, element.getAttribute('aria-label') ?? '');
    element.setAttribute('aria-label', words?.[element.getAttribute('data-i18n-label') ?? ''] || (originalLabel.get(element) ?? ''));
  }
  document.documentElement.lang = code;
  current = code;
  currentWords = words;
  for (const listener of listeners) listener(code);
}

/** @type {Array<(code: string) => void>} */
const listeners = [];
/** Calls `listener` each time the page's language changes (what a page writes itself, it writes again). @param {(code: string) => void} listener */
export const onLanguageChange = (listener) => void listeners.push(listener);

/**
 * Fills the page's language switch from GET /api/locales, puts the page in the reader's language, and
 * follows the switch. Resolves once the page is in it.
 * @param {HTMLSelectElement} select
 */
export async function installLanguageSwitch(select) {
  const answer = await loadLocales();
  if (!answer.ok) return;
  const { locales, default: fallback } = /** @type {{ locales: Array<{ code: string, name: string }>, default: string }} */ (answer.body);
  const chosen = pageLanguage(
    localStorage.getItem(STORED),
    navigator.languages ?? [],
    locales.map((locale) => locale.code),
    fallback,
  );
  select.replaceChildren(
    ...locales.map((locale) => {
      const option = document.createElement('option');
      option.value = locale.code;
      option.lang = locale.code;
      option.textContent = locale.name;
      option.selected = locale.code === chosen;
      return option;
    }),
  );
  select.addEventListener('change', () => {
    localStorage.setItem(STORED, select.value);
    void apply(select.value);
  });
  await apply(chosen);
}
