// @ts-check
// A subscription's planned outages in the calendar app a person already uses: the link to its calendar,
// as webcal:// (opens the calendar app) and as the plain address to paste into "add calendar from URL".
import { el } from './dom.js';
import { pageWord } from './page-words.js';

/**
 * When this subscription's feed publishes a calendar (the catalog says so: nothing is asked of the service),
 * fills `container` with the links. The links carry the token in their query: a calendar app can send no header.
 * @param {HTMLElement} container
 * @param {{ publicId: string, token: string, hasCalendar: boolean }} subscription
 */
export function showCalendarLinks(container, { publicId, token, hasCalendar }) {
  if (!hasCalendar) return;
  const path = `/api/notification-subscriptions/${encodeURIComponent(publicId)}/calendar.ics`;
  const address = new URL(`${path}?token=${encodeURIComponent(token)}`, location.href).href;
  container.replaceChildren(
    el('h3', {}, pageWord('page.calendar.heading', 'In your calendar')),
    el(
      'p',
      {},
      pageWord('page.calendar.intro', 'The planned outages this subscription is about, kept up to date in your own calendar app, with its own reminders.'),
    ),
    el('p', {}, el('a', { class: 'button', href: address.replace(/^https?:/, 'webcal:') }, pageWord('page.calendar.add', 'Add to my calendar'))),
    el(
      'p',
      { class: 'hint' },
      `${pageWord('page.calendar.paste', 'Or paste this address where your calendar app adds a calendar from a URL:')} `,
      el('code', { class: 'unbroken' }, address),
    ),
    el('p', { class: 'hint' }, pageWord('page.calendar.private', 'Keep it to yourself: whoever has it can read this calendar and manage the subscription.')),
  );
}
