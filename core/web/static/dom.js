// @ts-check
// Small DOM helpers shared by the pages. Text is always set as text, never parsed as HTML.

/**
 * `el('p', { class: 'hint' }, 'text', child)`: an element with attributes and children.
 * @param {string} tag
 * @param {Record<string, string>} [attributes]
 * @param {...(Node | string)} children
 * @returns {HTMLElement}
 */
export function el(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  element.append(...children);
  return element;
}

/**
 * @param {string} id
 * @returns {HTMLElement}
 */
export function byId(id) {
  const element = document.getElementById(id);
  if (!element) throw new Error(`#${id} is missing from the page`);
  return element;
}

/**
 * Puts a message in a live region (role="alert" or role="status"), or empties it.
 * @param {HTMLElement} region
 * @param {string} text
 */
export function say(region, text) {
  region.textContent = text;
  region.classList.toggle('shown', text !== '');
}
