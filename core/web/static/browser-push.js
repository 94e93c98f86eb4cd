// @ts-check
/**
 * Browser notifications for a target whose destination is the browser
 * itself (its manifest's `destination.browserSubscription`): register the
 * target's service worker, ask for permission, subscribe with the
 * service's VAPID key, and hand back `PushSubscription.toJSON()` for the
 * create request. And on the manage page, forget the browser's
 * subscription when it is the one deleted.
 */

/** @typedef {{ publicKeyUrl: string, serviceWorkerUrl: string }} BrowserSubscriptionSpec */

/**
 * @param {BrowserSubscriptionSpec} spec
 * @returns {Promise<{ ok: true, subscription: unknown } | { ok: false, message: string }>}
 */
export async function subscribeBrowser(spec) {
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) {
    return { ok: false, message: 'This browser cannot show notifications from a website. Choose another way to get the alerts.' };
  }
  /** @type {ServiceWorkerRegistration} */
  let registration;
  try {
    registration = await navigator.serviceWorker.register(spec.serviceWorkerUrl, { scope: '/' });
    await navigator.serviceWorker.ready;
  } catch {
    return { ok: false, message: 'The browser would not install this site’s notification helper. Try again, or choose another way.' };
  }
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') {
    return { ok: false, message: 'Notifications are blocked for this site. Allow them in the browser’s site settings, then subscribe again.' };
  }
  const key = await fetch(spec.publicKeyUrl)
    .then((response) => (response.ok ? response.json() : null))
    .catch(() => null);
  if (!key || typeof key.publicKey !== 'string') return { ok: false, message: 'Browser notifications are not set up on this service yet. Choose another way.' };
  try {
    const subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key.publicKey });
    return { ok: true, subscription: subscription.toJSON() };
  } catch {
    return {
      ok: false,
      message:
        'The browser could not reach its push service (it needs the internet for that), so it cannot get notifications now. Try again later, or choose another way.',
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
