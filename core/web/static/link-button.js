// @ts-check
// A page opened from a link in a message, with one button (/still-out, /confirm): the token stays in the
// fragment (never sent in a URL); nothing happens until the person presses the button (a link previewer
// that opens the page does nothing). Each page names its words (`page.<words>.*`) and its API.
import { callApi } from './api-client.js';
import { byId, say } from './dom.js';
import { installLanguageSwitch, pageWord } from './page-words.js';

/**
 * @param {{ prefix: string, words: string, api: string, done: (body: any) => string }} page
 *   `prefix`: the ids (`<prefix>-form`, `-button`, `-error`, `-status`, `-heading`); `words`: the key of its page
 *   words; `api`: where the token is posted; `done`: what to say once it went through.
 */
export function installLinkButton(page) {
  const token = decodeURIComponent(location.hash.slice(1));
  const form = /** @type {HTMLFormElement} */ (byId(`${page.prefix}-form`));
  const button = /** @type {HTMLButtonElement} */ (byId(`${page.prefix}-button`));
  const errorRegion = byId(`${page.prefix}-error`);
  const statusRegion = byId(`${page.prefix}-status`);
  const word = (/** @type {string} */ key, /** @type {string} */ english) => pageWord(`page.${page.words}.${key}`, english);

  if (token === '') form.hidden = true;
  // Said once the page is in the reader's language.
  void installLanguageSwitch(/** @type {HTMLSelectElement} */ (byId('page-language'))).then(() => {
    if (token === '') say(errorRegion, word('noToken', 'This page is opened from the link in an alert. Open that link again.'));
  });

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    button.disabled = true;
    say(errorRegion, '');
    const answer = await callApi('POST', page.api, { body: { token } });
    if (answer.ok) {
      form.hidden = true;
      say(statusRegion, page.done(answer.body));
      byId(`${page.prefix}-heading`).focus();
      return;
    }
    button.disabled = false;
    const { status } = answer.failure;
    say(
      errorRegion,
      status === 0
        ? word('offline', 'The service did not answer. Check your connection and try again.')
        : status === 404
          ? word('expired', 'This link is too old: its alert is no longer kept.')
          : word('badLink', 'This link is not one of ours, or it was cut short. Open the link in your alert again.'),
    );
  });
}
