// The mail inbox page: every email the service sent, newest first, with its links clickable
// (the verification link of a new Email subscription is one click away) and the HTML version
// in a sandboxed frame.
import { el, follow, formatTime, linkify } from './dom.js';

const app = document.getElementById('app');

function card(email) {
  const received = new Date(email.receivedAt);
  return el(
    'article',
    { class: 'card mail' },
    el('header', {}, el('span', {}, `To: ${email.to}`), el('time', { datetime: email.receivedAt }, formatTime(received))),
    el('h2', {}, email.subject),
    el('p', { class: 'meta' }, `From: ${email.from}`),
    email.links.length > 0 &&
      el(
        'div',
        { class: 'links' },
        el('h3', {}, 'Links'),
        el(
          'ul',
          {},
          email.links.map((link) =>
            el('li', {}, el('a', { href: link.url, target: '_blank', rel: 'noopener noreferrer' }, link.label), ': ', el('code', {}, link.url)),
          ),
        ),
      ),
    el('pre', { class: 'body' }, linkify(email.text)),
    email.hasHtml &&
      el(
        'details',
        {},
        el('summary', {}, 'HTML version'),
        el('iframe', {
          src: `/_mail/${encodeURIComponent(email.id)}.html`,
          sandbox: 'allow-popups allow-popups-to-escape-sandbox',
          title: `HTML version of "${email.subject}"`,
          loading: 'lazy',
        }),
      ),
  );
}

// Built once; a new email is put on top without rebuilding the others (an opened HTML version stays open).
const statusBadge = el('span', { class: 'status reconnecting', role: 'status' }, 'reconnecting…');
const empty = el('p', { class: 'empty' }, 'No emails yet. Subscribe by Email and the verification email appears here.');
const list = el('section', { class: 'cards', 'aria-label': 'Emails' }, empty);
app.replaceChildren(
  el('h1', {}, 'Mail inbox', statusBadge),
  el(
    'p',
    { class: 'lead' },
    'A local mail catcher: every email the service sends lands here instead of a real mailbox. ',
    'Open the verification link of a new Email subscription to confirm it.',
  ),
  list,
);

follow(
  '/_events',
  (email) => {
    empty.remove();
    list.prepend(card(email));
  },
  (status) => {
    statusBadge.className = `status ${status}`;
    statusBadge.textContent = status === 'live' ? 'live' : 'reconnecting…';
  },
);
