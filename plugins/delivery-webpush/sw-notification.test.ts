import { readFileSync } from 'node:fs';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';

// The service worker's pure mapping, loaded as the browser loads it: a classic script.
const source = readFileSync(new URL('./static/sw-notification.js', import.meta.url), 'utf8');
const notificationFromPush = vm.runInNewContext(`${source}; notificationFromPush`, { URL, JSON, String }) as (text: string, origin: string) => unknown;
const ORIGIN = 'https://alerts.example.org';

describe('notificationFromPush', () => {
  it.each<[string, string, unknown]>([
    [
      'an alert: its title and body, the tag (a later one replaces it), its page on a click',
      JSON.stringify({ title: 'Power outage: Kandy', body: 'Feeder: F12', tag: 'po-PO-1', priority: 'High', url: `${ORIGIN}/manage/abc` }),
      {
        title: 'Power outage: Kandy',
        options: { body: 'Feeder: F12', tag: 'po-PO-1', renotify: true, requireInteraction: false, data: { url: `${ORIGIN}/manage/abc` } },
      },
    ],
    [
      'an urgent alert stays until it is dismissed',
      JSON.stringify({ title: 'Storm', body: '', tag: 't', priority: 'Urgent', url: `${ORIGIN}/` }),
      { title: 'Storm', options: { body: '', tag: 't', renotify: true, requireInteraction: true, data: { url: `${ORIGIN}/` } } },
    ],
    [
      'a link to another site opens this one instead',
      JSON.stringify({ title: 'x', body: 'y', tag: 't', priority: 'Default', url: 'https://evil.example/phish' }),
      { title: 'x', options: { body: 'y', tag: 't', renotify: true, requireInteraction: false, data: { url: `${ORIGIN}/` } } },
    ],
    [
      'no tag: no replacing',
      JSON.stringify({ title: 'x', body: 'y' }),
      { title: 'x', options: { body: 'y', renotify: false, requireInteraction: false, data: { url: `${ORIGIN}/` } } },
    ],
    [
      'a payload that is not JSON still shows, as text',
      'plain words',
      { title: 'Outage alert', options: { body: 'plain words', renotify: false, requireInteraction: false, data: { url: `${ORIGIN}/` } } },
    ],
    [
      'JSON without a title',
      '{"body":"b"}',
      { title: 'Outage alert', options: { body: '{"body":"b"}', renotify: false, requireInteraction: false, data: { url: `${ORIGIN}/` } } },
    ],
    ['an empty push', '', { title: 'Outage alert', options: { body: '', renotify: false, requireInteraction: false, data: { url: `${ORIGIN}/` } } }],
  ])('%s', (_name, text, expected) => {
    expect(JSON.parse(JSON.stringify(notificationFromPush(text, ORIGIN)))).toEqual(expected);
  });
});
