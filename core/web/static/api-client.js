// @ts-check
// The pages' one way to call the service's HTTP API.

/**
 * @typedef {import('./error-words.js').ApiFailure} ApiFailure
 * @typedef {import('./error-words.js').Action} Action
 * @typedef {{ ok: true, status: number, body: any } | { ok: false, failure: ApiFailure }} ApiResult
 */

/**
 * @param {string} method
 * @param {string} path
 * @param {{ body?: unknown, token?: string, headers?: Record<string, string>, credentials?: RequestCredentials }} [options]
 *   `credentials`: 'omit' (the default: the pages need no cookie), 'same-origin' for the console's session
 * @returns {Promise<ApiResult>}
 */
export async function callApi(method, path, options = {}) {
  /** @type {Record<string, string>} */
  const headers = { accept: 'application/json', ...options.headers };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.token !== undefined) headers['x-subscription-token'] = options.token;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: options.credentials ?? 'omit',
    });
  } catch {
    return { ok: false, failure: { status: 0, body: null, retryAfter: null } };
  }
  const text = await response.text().catch(() => '');
  let body = null;
  try {
    body = text === '' ? null : JSON.parse(text);
  } catch {
    body = null;
  }
  if (response.ok) return { ok: true, status: response.status, body };
  return { ok: false, failure: { status: response.status, body, retryAfter: response.headers.get('retry-after') } };
}

/** @returns {Promise<ApiResult>} */
/** The catalog of feeds, their filter fields' words in `language` (English when not given). @param {string} [language] */
export const loadCatalog = (language) =>
  callApi('GET', `/api/notification-feeds${language && language !== 'en' ? `?language=${encodeURIComponent(language)}` : ''}`);

/** The delivery targets, their words for people in `language` (English when not given). @param {string} [language] @returns {Promise<ApiResult>} */
export const loadProviders = (language) =>
  callApi('GET', `/api/notification-providers${language && language !== 'en' ? `?language=${encodeURIComponent(language)}` : ''}`);

/** @type {Promise<ApiResult> | undefined} */
let locales;
/** The languages (one request per page, whoever asks: the page's switch, the alerts' language). @returns {Promise<ApiResult>} */
export const loadLocales = () => (locales ??= callApi('GET', '/api/locales'));
