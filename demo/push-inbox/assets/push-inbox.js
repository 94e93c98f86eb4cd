// The push inbox page: every topic's messages as they arrive, newest first. Messages with the same
// topic and sequence_id are one notification, as on a phone: a later one replaces the earlier one,
// which stays listed (struck through) under it, so a Restoration visibly replaces its outage.
import { batched, el, follow, formatTime, linkify } from './dom.js';

// ntfy shows a tag that names an emoji as that emoji before the title.
const EMOJI = {
  warning: '⚠️',
  electric_plug: '🔌',
  white_check_mark: '✅',
  heavy_check_mark: '✔️',
  loudspeaker: '📢',
  calendar: '📅',
  pencil2: '✏️',
  x: '❌',
  rotating_light: '🚨',
  bell: '🔔',
  wrench: '🔧',
  test_tube: '🧪',
  tada: '🎉',
  zap: '⚡',
  construction: '🚧',
  memo: '📝',
  hourglass: '⌛',
  information_source: 'ℹ️',
  no_entry: '⛔',
  skull: '💀',
};
const PRIORITY = { 1: 'min', 2: 'low', 4: 'high', 5: 'urgent' };

const app = document.getElementById('app');
const path = decodeURIComponent(location.pathname.slice(1));
const onlyTopic = path === '' ? null : path;
const notifications = new Map(); // topic + sequence_id -> { current, replaced: [older messages], read }
const counts = new Map(); // topic -> messages received
let status = 'reconnecting';

function receive(m) {
  const key = `${m.topic}\u0000${m.sequence_id ?? m.id}`;
  if (m.event === 'message') {
    counts.set(m.topic, (counts.get(m.topic) ?? 0) + 1);
    const known = notifications.get(key);
    notifications.delete(key); // re-inserted last: the newest activity comes first on the page
    notifications.set(key, known ? { current: m, replaced: [known.current, ...known.replaced], read: false } : { current: m, replaced: [], read: false });
  } else if (m.event === 'message_delete') {
    notifications.delete(key);
  } else if (m.event === 'message_clear' && notifications.has(key)) {
    notifications.get(key).read = true;
  }
  render();
}

const when = (m) => el('time', { datetime: new Date(m.time * 1000).toISOString() }, formatTime(new Date(m.time * 1000)));
const emojiOf = (m) =>
  (m.tags ?? [])
    .filter((t) => EMOJI[t])
    .map((t) => EMOJI[t])
    .join('');
const titleOf = (m) => m.title ?? m.topic;

function card({ current: m, replaced, read }) {
  const plainTags = (m.tags ?? []).filter((t) => !EMOJI[t]);
  const classes = ['card', `prio-${m.priority ?? 3}`, replaced.length > 0 && 'was-replaced', read && 'read'].filter(Boolean).join(' ');
  return el(
    'article',
    { class: classes, 'data-topic': m.topic, 'data-sequence-id': m.sequence_id ?? m.id },
    el(
      'header',
      {},
      el('a', { class: 'topic', href: `/${encodeURIComponent(m.topic)}` }, m.topic),
      when(m),
      PRIORITY[m.priority] && el('span', { class: `badge ${m.priority >= 4 ? 'high' : ''}` }, `${PRIORITY[m.priority]} priority`),
      replaced.length > 0 &&
        el('span', { class: 'badge replaced' }, replaced.length === 1 ? 'replaced 1 earlier message' : `replaced ${replaced.length} earlier messages`),
      read && el('span', { class: 'badge' }, 'read'),
    ),
    el('h2', {}, emojiOf(m) && el('span', { class: 'emoji', 'aria-hidden': 'true' }, emojiOf(m)), titleOf(m)),
    el('p', { class: 'body' }, linkify(m.message ?? '')),
    plainTags.length > 0 &&
      el(
        'ul',
        { class: 'chips', 'aria-label': 'Tags' },
        plainTags.map((t) => el('li', {}, t)),
      ),
    m.click && el('p', {}, el('a', { href: m.click, target: '_blank', rel: 'noopener noreferrer' }, 'Open link')),
    replaced.length > 0 &&
      el(
        'div',
        { class: 'replaces' },
        el('p', {}, 'Replaces (same sequence_id ', el('code', {}, m.sequence_id ?? m.id), '):'),
        el(
          'ul',
          {},
          replaced.map((old) => el('li', {}, el('s', {}, `${emojiOf(old)} ${titleOf(old)}`.trim()), ' ', when(old))),
        ),
      ),
  );
}

const render = batched(() => {
  const shown = [...notifications.values()].filter((n) => onlyTopic === null || n.current.topic === onlyTopic).reverse();
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  const topicLinks = [
    el('a', { href: '/', 'aria-current': onlyTopic === null ? 'page' : undefined }, `All topics (${total})`),
    ...[...counts.keys()]
      .sort()
      .map((topic) =>
        el('a', { href: `/${encodeURIComponent(topic)}`, 'aria-current': topic === onlyTopic ? 'page' : undefined }, `${topic} (${counts.get(topic)})`),
      ),
  ];
  const pollTopic = onlyTopic ?? '<topic>';
  app.replaceChildren(
    el(
      'h1',
      {},
      onlyTopic === null ? 'Push inbox' : `Push inbox: ${onlyTopic}`,
      el('span', { class: `status ${status}`, role: 'status' }, status === 'live' ? 'live' : 'reconnecting…'),
    ),
    el(
      'p',
      { class: 'lead' },
      'A local ntfy-compatible push server. Messages of every topic appear here as they are published; ',
      'one with the same sequence_id as an earlier one replaces it, as on a phone.',
    ),
    el('nav', { class: 'topics', 'aria-label': 'Topics' }, topicLinks),
    el('p', { class: 'hint' }, 'Poll API: ', el('code', {}, `GET ${location.origin}/${pollTopic}/json?poll=1`)),
    el(
      'section',
      { class: 'cards', 'aria-label': 'Notifications' },
      shown.length > 0 ? shown.map(card) : el('p', { class: 'empty' }, 'No messages yet. They appear here as soon as they are published.'),
    ),
  );
});

follow('/_events', receive, (next) => {
  status = next;
  render();
});
render();
