// Small DOM helpers shared by the demo's inbox pages. Every text goes into the page as a text
// node and every link through safeHref, so a message can never inject markup or script.

/** An element with attributes (`class`, `href`, `title`, …) and children (strings become text nodes). */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'href' || name === 'src') {
      const url = safeHref(String(value));
      if (url !== null) node.setAttribute(name, url);
    } else {
      node.setAttribute(name, value === true ? '' : String(value));
    }
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return node;
}

/** The URL when it is http(s) (relative ones resolve against this page), else null. */
export function safeHref(text) {
  try {
    const url = new URL(text, location.href);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

const URL_IN_TEXT = /https?:\/\/[^\s<>"'()]+[^\s<>"'().,;:!?]/g;

/** Text with its http(s) URLs turned into links that open in a new tab. */
export function linkify(text) {
  const nodes = [];
  let last = 0;
  for (const match of text.matchAll(URL_IN_TEXT)) {
    nodes.push(text.slice(last, match.index));
    nodes.push(el('a', { href: match[0], target: '_blank', rel: 'noopener noreferrer' }, match[0]));
    last = match.index + match[0].length;
  }
  nodes.push(text.slice(last));
  return nodes;
}

/**
 * A readable time as the service's messages write theirs: 24-hour, with the zone named ("14:05:09 GMT+5:30"),
 * and the date when it is not today. The demo's feeds use this machine's zone, as the browser does.
 */
export function formatTime(date) {
  const sameDay = date.toDateString() === new Date().toDateString();
  const time = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23', timeZoneName: 'short' }).format(
    date,
  );
  return sameDay ? time : `${new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' }).format(date)}, ${time}`;
}

/**
 * Follows a server-sent event stream of JSON items: `onItem` gets each item once (a reconnect
 * replays the backlog; items are told apart by `id`), `onStatus` gets 'live' or 'reconnecting'.
 */
export function follow(path, onItem, onStatus) {
  const seen = new Set();
  const source = new EventSource(path);
  source.onopen = () => onStatus('live');
  source.onerror = () => onStatus('reconnecting');
  source.onmessage = (event) => {
    const item = JSON.parse(event.data);
    if (seen.has(item.id)) return;
    seen.add(item.id);
    onItem(item);
  };
}

/** Calls `render` once per animation frame at most, however many items arrive. */
export function batched(render) {
  let pending = false;
  return () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      render();
    });
  };
}
