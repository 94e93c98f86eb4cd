import { describe, expect, it } from 'vitest';
import { headerText, mailboxOf, maskEmailAddress, normaliseEmailAddress } from './email-address.ts';

describe('mailboxOf', () => {
  it.each([
    ['victim@example.org', 'victim@example.org'],
    ['Victim@example.org', 'victim@example.org'],
    ['victim+1@example.org', 'victim@example.org'],
    ['victim+a+b@example.org', 'victim@example.org'],
    ['+only@example.org', '+only@example.org'],
  ])('%j counts as %j', (address, mailbox) => {
    expect(mailboxOf(address)).toBe(mailbox);
  });
});

describe('normaliseEmailAddress', () => {
  it.each([
    ['a@example.org', 'a@example.org'],
    ['  Someone.Else@Example.ORG ', 'Someone.Else@example.org'],
    ['first+tag@mail.example.co.uk', 'first+tag@mail.example.co.uk'],
    ["o'brien@xn--bcher-kva.example", "o'brien@xn--bcher-kva.example"],
  ])('%j → %j', (input, expected) => {
    expect(normaliseEmailAddress(input)).toBe(expected);
  });

  it.each([
    '',
    'plain',
    '@example.org',
    'a@',
    'a@localhost',
    'a@example',
    'a..b@example.org',
    '.a@example.org',
    'a b@example.org',
    'a@example.org\r\nBcc: x@example.net',
    'a@example.org\nx',
    'a@example.org, b@example.org',
    'Name <a@example.org>',
    '"quoted"@example.org',
    'a@exa_mple.org',
    'a@-example.org',
    'a@example.123',
    'ä@example.org',
    `${'x'.repeat(65)}@example.org`,
    `a@${'b'.repeat(250)}.org`,
  ])('refuses %j', (input) => {
    expect(normaliseEmailAddress(input)).toBeNull();
  });
});

describe('headerText', () => {
  it.each([
    ['Power outage: Kandy', 'Power outage: Kandy'],
    ['Kandy\r\nBcc: evil@example.net', 'Kandy Bcc: evil@example.net'],
    ['a\rb\nc\u2028d\u0000e\tf', 'a b c d e f'],
    ['  spaced   out  ', 'spaced out'],
  ])('%j → %j', (input, expected) => {
    expect(headerText(input)).toBe(expected);
  });

  it('cuts long values at whole characters with an ellipsis', () => {
    const cut = headerText('é'.repeat(300), 200);
    expect([...cut]).toHaveLength(200);
    expect(cut.endsWith('…')).toBe(true);
  });
});

describe('maskEmailAddress', () => {
  it.each([
    ['stubborn@example.org', 's***@example.org'],
    ['a@example.org', 'a***@example.org'],
    ['broken', '***'],
  ])('%s → %s', (input, expected) => {
    expect(maskEmailAddress(input)).toBe(expected);
  });
});
