/**
 * What a push message becomes on the screen (pure, in the service
 * worker): the payload `{ title, body, tag, priority, url }` as a
 * notification, `tag` the sequence id so a restoration replaces its
 * outage, `url` opened on a click only when it is this site's. A payload
 * that is not that JSON still shows something, never a script's choice of
 * site.
 * @param {string} text the decrypted payload
 * @param {string} origin the service worker's origin
 * @returns {{ title: string, options: { body: string, tag?: string, renotify: boolean, requireInteraction: boolean, data: { url: string } } }}
 */
// biome-ignore lint/correctness/noUnusedVariables: the service worker concatenates this file with sw-events.js, which calls it
function notificationFromPush(text, origin) {
  let data = null;
  try {
    data = JSON.parse(text);
  } catch {
    data = null;
  }
  const home = `${origin}/`;
  if (!data || typeof data !== 'object' || typeof data.title !== 'string') {
    return { title: 'Outage alert', options: { body: String(text || '').slice(0, 500), renotify: false, requireInteraction: false, data: { url: home } } };
  }
  let url = home;
  if (typeof data.url === 'string') {
    try {
      if (new URL(data.url).origin === origin) url = data.url;
    } catch {
      url = home;
    }
  }
  const tag = typeof data.tag === 'string' && data.tag !== '' ? data.tag.slice(0, 200) : undefined;
  return {
    title: data.title.slice(0, 200),
    options: {
      body: typeof data.body === 'string' ? data.body.slice(0, 2000) : '',
      ...(tag ? { tag } : {}),
      renotify: tag !== undefined,
      requireInteraction: data.priority === 'Urgent',
      data: { url },
    },
  };
}
