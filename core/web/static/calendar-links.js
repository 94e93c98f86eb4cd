// @ts-check
// A subscription's planned outages in the calendar app a person already uses: the link to its calendar,
// as webcal:// (opens the calendar app) and as the plain address to paste into "add calendar from URL".
import { el } from './dom.js';

/**
 * Asks the service whether this subscription's feed publishes a calendar (a HEAD request with the token
 * in a header, as every call of these pages sends it) and, when it does, fills `container` with the links.
 * The links themselves carry the token in their query: a calendar app can send no header.
 * @param {HTMLElement} container
 * @param {{ publicId: string, token: string }} subscription
 */
export async function showCalendarLinks(container, { publicId, token }) {
  const path = `/api/notification-subscriptions/${encodeURIComponent(publicId)}/calendar.ics`;
  let response;
  try {
    response = await fetch(path, { method: 'HEAD', headers: { 'x-subscription-token': token }, credentials: 'omit' });
  } catch {
    return;
  }
  if (!response.ok) return;
  const address = new URL(`${path}?token=${encodeURIComponent(token)}`, location.href).href;
  container.replaceChildren(
    el('h3', {}, 'In your calendar'),
    el('p', {}, 'The planned outages this subscription is about, kept up to date in your own calendar app, with its own reminders.'),
    el('p', {}, el('a', { class: 'button', href: address.replace(/^https?:/, 'webcal:') }, 'Add to my calendar')),
    el('p', { class: 'hint' }, 'Or paste this address where your calendar app adds a calendar from a URL: ', el('code', { class: 'unbroken' }, address)),
    el('p', { class: 'hint' }, 'Keep it to yourself: whoever has it can read this calendar and manage the subscription.'),
  );
}
