// @ts-check
// "Not over for you?": /still-out#<token>, the link a message that ended an outage carries. The token stays in
// the fragment (never sent in a URL); nothing is reported until the person presses the button (a link
// previewer that opens the page reports nothing). One report per subscription and outage.
import { callApi } from './api-client.js';
import { byId, say } from './dom.js';
import { installLanguageSwitch, pageWord } from './page-words.js';

const token = decodeURIComponent(location.hash.slice(1));
const form = /** @type {HTMLFormElement} */ (byId('still-out-form'));
const button = /** @type {HTMLButtonElement} */ (byId('still-out-button'));
const errorRegion = byId('still-out-error');
const statusRegion = byId('still-out-status');

if (token === '') form.hidden = true;
// Said once the page is in the reader's language.
void installLanguageSwitch(/** @type {HTMLSelectElement} */ (byId('page-language'))).then(() => {
  if (token === '') say(errorRegion, pageWord('page.stillOut.noToken', 'This page is opened from the link in an alert. Open that link again.'));
});

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  button.disabled = true;
  say(errorRegion, '');
  const answer = await callApi('POST', '/api/still-out', { body: { token } });
  if (answer.ok) {
    form.hidden = true;
    const where = answer.body.areas ? ` (${answer.body.areas})` : '';
    say(
      statusRegion,
      answer.body.recorded
        ? `${pageWord('page.stillOut.thanks', 'Thank you: your report is passed on.')}${where}`
        : `${pageWord('page.stillOut.already', 'Your report is in already: thank you.')}${where}`,
    );
    byId('still-out-heading').focus();
    return;
  }
  button.disabled = false;
  const { status } = answer.failure;
  say(
    errorRegion,
    status === 0
      ? pageWord('page.stillOut.offline', 'The service did not answer. Check your connection and try again.')
      : status === 404
        ? pageWord('page.stillOut.expired', 'This link is too old: its alert is no longer kept.')
        : pageWord('page.stillOut.badLink', 'This link is not one of ours, or it was cut short. Open the link in your alert again.'),
  );
});
