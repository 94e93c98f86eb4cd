// @ts-check
// What a person needs to get a push subscription onto their phone: the link, its QR code, the app's steps.
import { el } from './dom.js';
import { pushServerAndTopic } from './form-values.js';

const NTFY_SH = 'https://ntfy.sh';

/**
 * The QR code comes from the service (it encodes only this subscription's link, so it needs the
 * manage token), as an SVG shown through a blob URL: nothing is loaded from another host.
 * @param {HTMLImageElement} image
 * @param {string} publicId
 * @param {string} token
 */
async function loadQrCode(image, publicId, token) {
  try {
    const response = await fetch(`/web/subscriptions/${encodeURIComponent(publicId)}/qr.svg`, { headers: { 'x-subscription-token': token }, credentials: 'omit' });
    if (!response.ok) throw new Error(String(response.status));
    image.src = URL.createObjectURL(await response.blob());
  } catch {
    image.replaceWith(el('p', { class: 'hint' }, 'The QR code could not be made: use the link above.'));
  }
}

/**
 * @param {{ publicId: string, subscribeUrl: string | null, token: string }} subscription
 * @returns {HTMLElement}
 */
export function pushSetup({ publicId, subscribeUrl, token }) {
  if (!subscribeUrl) {
    return el(
      'div',
      { class: 'push-setup' },
      el('p', {}, 'This service has no push server set up yet, so there is no link for the ntfy app. Your subscription is saved: once the service’s operator sets up the push server, this page and the manage page show the link.'),
    );
  }
  const { server, topic } = pushServerAndTopic(subscribeUrl);
  const image = /** @type {HTMLImageElement} */ (el('img', { class: 'qr', alt: 'QR code of the subscribe link', width: '200', height: '200' }));
  void loadQrCode(image, publicId, token);
  const steps = el(
    'ol',
    { class: 'steps' },
    el('li', {}, 'Install the free ntfy app: from Google Play or F-Droid on Android, from the App Store on an iPhone.'),
    el('li', {}, 'In the app, tap ', el('strong', {}, '+'), ' and enter the topic ', el('code', {}, topic), '.'),
  );
  if (server !== NTFY_SH) steps.append(el('li', {}, 'Tick ', el('strong', {}, 'Use another server'), ' and enter ', el('code', {}, server), '.'));
  steps.append(el('li', {}, 'Tap ', el('strong', {}, 'Subscribe'), '. Alerts now arrive as notifications on the phone.'));
  return el(
    'div',
    { class: 'push-setup' },
    el('p', {}, el('a', { class: 'button', href: subscribeUrl }, 'Open in the ntfy app')),
    el('figure', { class: 'qr-figure' }, image, el('figcaption', {}, 'Scan it with your phone’s camera to open the link there.')),
    el('h3', {}, 'On your phone'),
    steps,
  );
}
