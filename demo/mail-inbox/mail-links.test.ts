import { describe, expect, it } from 'vitest';
import { linksOfEmail } from './mail-links.ts';

const base = 'http://127.0.0.1:5000/api/notification-subscriptions/abc';

describe('links of an email', () => {
  it.each([
    ['no links', 'Hello.\n', undefined, []],
    [
      'a verification link',
      `To confirm, open this link (valid for 48 hours, once):\n${base}/verify?token=x-y_z\n\nIf you did not ask…`,
      undefined,
      [{ url: `${base}/verify?token=x-y_z`, label: 'Confirm the subscription (verification link)' }],
    ],
    [
      'an unsubscribe link in the text and the header, once',
      `Power outage.\nUnsubscribe: ${base}/unsubscribe?token=t1\n`,
      `<${base}/unsubscribe?token=t1>, <mailto:unsubscribe@example.org>`,
      [{ url: `${base}/unsubscribe?token=t1`, label: 'Unsubscribe' }],
    ],
    [
      'only the header',
      'Plain text without links',
      `<${base}/unsubscribe?token=t2>`,
      [{ url: `${base}/unsubscribe?token=t2`, label: 'Unsubscribe (List-Unsubscribe header)' }],
    ],
    [
      'trailing punctuation is not part of a link; other schemes are not links',
      'See https://example.org/a. Or (https://example.org/b), javascript:alert(1), ftp://example.org/c',
      undefined,
      [
        { url: 'https://example.org/a', label: 'Link' },
        { url: 'https://example.org/b', label: 'Link' },
      ],
    ],
  ])('%s', (_name, text, header, expected) => {
    expect(linksOfEmail(text, header)).toEqual(expected);
  });
});
