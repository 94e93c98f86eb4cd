// @ts-check
// What a person needs to take a subscribe link to their phone: the link, its QR code, and the steps its provider gives.
import { el } from './dom.js';
import { pageWord } from './page-words.js';

/**
 * The QR code comes from the service (it encodes only this subscription's link, so it needs the
 * manage token), as an SVG shown through a blob URL: nothing is loaded from another host.
 * @param {HTMLImageElement} image
 * @param {string} publicId
 * @param {string} token
 */
async function loadQrCode(image, publicId, token) {
  try {
    const response = await fetch(`/web/subscriptions/${encodeURIComponent(publicId)}/qr.svg`, {
      headers: { 'x-subscription-token': token },
      credentials: 'omit',
    });
    if (!response.ok) throw new Error(String(response.status));
    image.src = URL.createObjectURL(await response.blob());
  } catch {
    image.replaceWith(el('p', { class: 'hint' }, pageWord('page.link.noQr', 'The QR code could not be made: use the link above.')));
  }
}

/**
 * The subscribe link of a subscription whose provider made its destination (a push topic), or why there is none yet.
 * @param {{ publicId: string, subscribeUrl: string | null, subscribeSteps: string[], token: string }} subscription
 * @param {string} linkLabel what the button to the link says (its provider's words)
 * @returns {HTMLElement}
 */
export function linkSetup({ publicId, subscribeUrl, subscribeSteps, token }, linkLabel) {
  if (!subscribeUrl) {
    return el(
      'div',
      { class: 'link-setup' },
      el(
        'p',
        {},
        pageWord(
          'page.link.none',
          'There is no subscribe link yet: this way of delivery is not fully set up on the service. Your subscription is saved: once the service’s operator finishes, this page shows the link.',
        ),
      ),
    );
  }
  const image = /** @type {HTMLImageElement} */ (
    el('img', { class: 'qr', alt: pageWord('page.link.qrAlt', 'QR code of the subscribe link'), width: '200', height: '200' })
  );
  void loadQrCode(image, publicId, token);
  return el(
    'div',
    { class: 'link-setup' },
    el('p', {}, el('a', { class: 'button', href: subscribeUrl }, linkLabel)),
    el('figure', { class: 'qr-figure' }, image, el('figcaption', {}, pageWord('page.link.scan', 'Scan it with your phone’s camera to open the link there.'))),
    ...(subscribeSteps.length > 0
      ? [el('h3', {}, pageWord('page.link.onPhone', 'On your phone')), el('ol', { class: 'steps' }, ...subscribeSteps.map((step) => el('li', {}, step)))]
      : []),
  );
}
