// @ts-check
/**
 * The box for a confirmation code (a text message's): for a target whose
 * manifest names the URL the code goes to (`confirmation.codeUrl`), the
 * subscribe page's result asks for it, posts `{ code }` with the manage
 * token, and says what came of it in a live region.
 */
import { callApi } from './api-client.js';
import { el, say } from './dom.js';
import { codeWords } from './failure-words.js';
import { pageWord } from './page-words.js';

/**
 * @param {{ codeUrl: string, publicId: string, token: string, onConfirmed: () => void }} options
 * @returns {HTMLFormElement}
 */
export function codeForm({ codeUrl, publicId, token, onConfirmed }) {
  const input = /** @type {HTMLInputElement} */ (
    el('input', {
      id: 'confirm-code',
      type: 'text',
      name: 'code',
      inputmode: 'numeric',
      autocomplete: 'one-time-code',
      maxlength: '6',
      pattern: '[0-9]{6}',
      required: '',
      'aria-describedby': 'confirm-code-hint confirm-code-error',
    })
  );
  const alert = el('div', { class: 'alert', id: 'confirm-code-error', role: 'alert' });
  const button = /** @type {HTMLButtonElement} */ (el('button', { type: 'submit' }, pageWord('page.code.confirm', 'Confirm')));
  const form = /** @type {HTMLFormElement} */ (
    el(
      'form',
      { class: 'code-form', novalidate: '' },
      el(
        'div',
        { class: 'field' },
        el('label', { for: 'confirm-code' }, pageWord('page.code.label', 'Code from the message')),
        input,
        el('p', { class: 'hint', id: 'confirm-code-hint' }, pageWord('page.code.hint', 'Type its 6 digits here, or reply as the message says.')),
      ),
      alert,
      button,
    )
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const code = input.value.trim();
    if (!/^[0-9]{6}$/.test(code)) {
      input.setAttribute('aria-invalid', 'true');
      return say(alert, pageWord('page.code.sixDigits', 'Type the 6 digits of the code.'));
    }
    say(alert, '');
    button.disabled = true;
    const answer = await callApi('POST', codeUrl.replace('{publicId}', encodeURIComponent(publicId)), { token, body: { code } });
    button.disabled = false;
    if (answer.ok) return onConfirmed();
    input.setAttribute('aria-invalid', 'true');
    say(alert, codeWords(answer.failure));
    // Back in the box, for the next try (the disabled button had the focus).
    input.focus();
  });
  return form;
}
