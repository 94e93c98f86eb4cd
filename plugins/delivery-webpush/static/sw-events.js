/* The service worker's events: a push shows its notification, a click opens its page. */
self.addEventListener('push', (event) => {
  const shown = notificationFromPush(event.data ? event.data.text() : '', self.location.origin);
  event.waitUntil(self.registration.showNotification(shown.title, shown.options));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = event.notification.data?.url || `${self.location.origin}/`;
  event.waitUntil(self.clients.openWindow(url));
});
