// @ts-check
// A feed's filter fields on a page, as the feed declares them (the catalog's filterFields): one input each, in the feed's
// own words (a transit feed's "Routes", a utility's "Feeders"); core has no words of its own for them.
import { el } from './dom.js';
import { pageWord } from './page-words.js';

/** @typedef {import('./form-values.js').FilterField} FilterField */

/** The three fields core knew first keep the input ids they always had (error messages and links name them). */
const OLDER_INPUTS = /** @type {Record<string, string>} */ ({ locationKeywords: 'areas', feeders: 'feeders', keywords: 'keywords' });

/**
 * The input of a field: `areas`, `feeders`, `keywords` for the older three, `field-<id>` for a feed's own; with a prefix on a
 * page that has two forms (`edit-`).
 * @param {string} id
 * @param {string} [prefix]
 */
export const inputIdOf = (id, prefix = '') => prefix + (OLDER_INPUTS[id] ?? `field-${id}`);

/**
 * What is typed in each field, by field id.
 * @param {readonly FilterField[]} fields
 * @param {string} [prefix]
 * @returns {Record<string, string>}
 */
export function readFilterFields(fields, prefix = '') {
  /** @type {Record<string, string>} */
  const values = {};
  for (const field of fields) {
    const input = document.getElementById(inputIdOf(field.id, prefix));
    if (input instanceof HTMLInputElement) values[field.id] = input.value;
  }
  return values;
}

/**
 * Puts one labelled input per field in `container` (its hint and example under it), holding `values` by field id.
 * @param {HTMLElement} container
 * @param {readonly FilterField[]} fields
 * @param {Record<string, string>} values
 * @param {{ prefix?: string, onInput?: () => void }} [options]
 */
export function renderFilterFields(container, fields, values, options = {}) {
  container.replaceChildren(
    ...fields.map((field) => {
      const id = inputIdOf(field.id, options.prefix);
      const hintId = `${id}-hint`;
      const input = /** @type {HTMLInputElement} */ (el('input', { id, name: id, type: 'text', autocomplete: 'off', maxlength: '1000' }));
      input.value = values[field.id] ?? '';
      if (options.onInput) input.addEventListener('input', options.onInput);
      const example = field.example ? [' ', pageWord('page.forExample', 'For example:'), ' ', el('i', {}, field.example)] : [];
      const hint = field.hint || example.length > 0 ? [el('p', { class: 'hint', id: hintId }, field.hint, ...example)] : [];
      if (hint.length > 0) input.setAttribute('aria-describedby', hintId);
      return el('div', { class: 'field', id: `${id}-field` }, el('label', { for: id }, field.label), input, ...hint);
    }),
  );
  container.hidden = fields.length === 0;
}
