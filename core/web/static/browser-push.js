// @ts-check
/**
 * Browser notifications for a target whose destination is the browser
 * itself (its manifest's `destination.browserSubscription`): register the
 * target's service worker, ask for permission, subscribe with the
 * service's VAPID key, and hand back `PushSubscription.toJSON()` for the
 * create request. And on the manage page, forget the browser's
 * subscription when it is the one deleted. What it says is in the page's
 * language.
 */
import { pageWord } from './page-words.js';

/** @typedef {{ publicKeyUrl: string, serviceWorkerUrl: string }} BrowserSubscriptionSpec */

/**
 * How long the browser's push service may take to answer a subscribe: a browser with no way to it
 * (offline, or a network that blocks it) may never answer, and the page must not wait for ever.
 */
export const PUSH_SERVICE_SECONDS = 15;

/** @template T @param {Promise<T>} promise @param {number} seconds @returns {Promise<T | 'timeout'>} */
const within = (promise, seconds) => Promise.race([promise, new Promise((resolve) => setTimeout(() => resolve('timeout'), seconds * 1000))]);

/**
 * @param {BrowserSubscriptionSpec} spec
 * @returns {Promise<{ ok: true, subscription: unknown } | { ok: false, message: string }>}
 */
export async function subscribeBrowser(spec) {
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) {
    return {
      ok: false,
      message: pageWord('page.push.unsupported', 'This browser cannot show notifications from a website. Choose another way to get the alerts.'),
    };
  }
  /** @type {ServiceWorkerRegistration} */
  let registration;
  try {
    registration = await navigator.serviceWorker.register(spec.serviceWorkerUrl, { scope: '/' });
    await navigator.serviceWorker.ready;
  } catch {
    return {
      ok: false,
      message: pageWord('page.push.helper', 'The browser would not install this site’s notification helper. Try again, or choose another way.'),
    };
  }
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') {
    return {
      ok: false,
      message: pageWord('page.push.blocked', 'Notifications are blocked for this site. Allow them in the browser’s site settings, then subscribe again.'),
    };
  }
  const key = await fetch(spec.publicKeyUrl)
    .then((response) => (response.ok ? response.json() : null))
    .catch(() => null);
  if (!key || typeof key.publicKey !== 'string')
    return { ok: false, message: pageWord('page.push.notSetUp', 'Browser notifications are not set up on this service yet. Choose another way.') };
  try {
    const subscription = await within(registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key.publicKey }), PUSH_SERVICE_SECONDS);
    if (subscription === 'timeout') {
      return {
        ok: false,
        message: pageWord(
          'page.push.timeout',
          'The browser’s push service did not answer within @seconds seconds (it needs the internet). Try again later, or choose another way.',
        ).replace('@seconds', String(PUSH_SERVICE_SECONDS)),
      };
    }
    return { ok: true, subscription: subscription.toJSON() };
  } catch {
    return {
      ok: false,
      message: pageWord(
        'page.push.unreachable',
        'The browser could not reach its push service (it needs the internet for that), so it cannot get notifications now. Try again later, or choose another way.',
      ),
    };
  }
}

/**
 * Unsubscribes this browser from its push service when its subscription is `endpoint` (the one just deleted).
 * @param {string} endpoint
 */
export async function forgetBrowser(endpoint) {
  if (!('serviceWorker' in navigator)) return;
  const registration = await navigator.serviceWorker.getRegistration('/').catch(() => undefined);
  const subscription = await registration?.pushManager.getSubscription().catch(() => null);
  if (subscription && subscription.endpoint === endpoint) await subscription.unsubscribe().catch(() => false);
}
