import { describe, expect, it } from 'vitest';
import { codeFailureWords, explainBadInput, explainFailure, retryAfterSeconds, waitWords } from './static/error-words.js';

const NOW = new Date('2026-11-22T22:00:00.000Z');
const clock = (date: Date) => date.toISOString().slice(11, 16);
const failure = (status: number, message = '', retryAfter: string | null = null) => ({
  status,
  body: message ? { statusCode: status, message } : null,
  retryAfter,
});

describe('API failures in words a person understands', () => {
  it.each([
    [30, 'in 30 seconds'],
    [1, 'in 1 second'],
    [0, 'in 1 second'],
    [60, 'in 1 minute'],
    [299, 'in 5 minutes'],
    [3600, 'in 1 hour'],
    [7200, 'in 2 hours'],
    [5 * 86_400, 'in 5 days'],
  ])('waiting %i s reads "%s"', (seconds, words) => {
    expect(waitWords(seconds)).toBe(words);
  });

  it("says the wait in the page's language (Intl's words)", () => {
    expect(waitWords(299, 'ta-LK')).toBe(new Intl.RelativeTimeFormat('ta-LK', { numeric: 'always' }).format(5, 'minute'));
    expect(waitWords(299, 'ta-LK')).toMatch(/[\u0B80-\u0BFF]/);
  });

  it.each([
    [failure(0), 'subscribe'],
    [failure(500), 'view'],
    [failure(429, 'MaxPerIpPerDay', '7200'), 'subscribe'],
    [failure(429, '', '240'), 'test'],
    [failure(429, '', null), 'edit'],
    [failure(400, 'body/delivery/destination must be an email address'), 'subscribe'],
    [failure(400, 'body/filter/feeders/0 must NOT have more than 100 characters'), 'edit'],
    [failure(400, 'body/filter must NOT have additional properties'), 'subscribe'],
    [failure(413), 'subscribe'],
    [failure(403), 'subscribe'],
    [failure(418), 'subscribe'],
    [failure(401), 'view'],
    [failure(404), 'view'],
    [failure(409, 'not verified'), 'test'],
    [failure(409, 'x'), 'test'],
    [failure(502), 'catalog'],
  ] as const)('every sentence it says is a page word (%j, %s): a page shows it in its language', (refused, action) => {
    const keyOnly = (key: string) => key;
    expect(explainFailure(refused, action, NOW, { formatTime: clock, w: keyOnly }).text).toMatch(/^page\.[\w.]+$/);
  });

  it('a refused code too is said in page words, their placeholders filled', () => {
    const said: Array<[string, Record<string, string> | undefined]> = [];
    const words = (key: string, _english: string, values?: Record<string, string>) => {
      said.push([key, values]);
      return key;
    };
    codeFailureWords({ status: 400, body: { message: 'body/code is wrong (3 tries left)' }, retryAfter: null }, words);
    expect(said).toEqual([['page.code.triesLeft', { tries: '3' }]]);
  });

  it.each([
    ['120', 120],
    [' 7 ', 7],
    ['Sun, 22 Nov 2026 22:10:00 GMT', 600],
    ['Sun, 22 Nov 2026 21:00:00 GMT', 0],
    ['soon', null],
    [null, null],
  ])('Retry-After %j is %j seconds', (value, seconds) => {
    expect(retryAfterSeconds(value, NOW)).toBe(seconds);
  });

  it.each([
    ['body/delivery/destination must be an email address', 'destination', 'Destination: this is not an email address we can send to. Check it for typos.'],
    ['body/filter/feeders/0 must NOT have more than 100 characters', 'feeders', 'Feeders: each entry can have at most 100 characters.'],
    ['body/filter/locationKeywords must NOT have more than 50 items', 'areas', 'Areas: at most 50 entries, please.'],
    ['body/displayName must NOT have more than 100 characters', 'name', 'Name: it can have at most 100 characters.'],
    ['body/displayName must not be blank', 'name', 'Name: this must not be empty.'],
    ['body/delivery/provider: Email is not available', 'provider', 'Deliver by: this service does not offer this way of delivery.'],
    [
      'body/filter/eventTypes/0: "X" is not an event type of f (A, B)',
      'eventTypes',
      'Notify me about: this feed does not send that kind of alert. Reload the page.',
    ],
    ['body/filter/feeders: f cannot be filtered by Feeder', 'feeders', 'Feeders: this feed cannot be filtered this way.'],
    ['body/feedId: unknown feed "x"', 'feed', 'Feed: this feed is not offered (any more). Reload the page.'],
    ['body/filter/keywords/1 must match pattern "^a"', 'keywords', 'Keywords: must match pattern "^a"'],
  ])('400 "%s" is about %s', (message, field, text) => {
    expect(explainBadInput(message)).toEqual({ field, text });
  });

  it('names the destination field by the label the chosen provider gives it', () => {
    expect(explainBadInput('body/delivery/destination must be an email address', { destination: 'Email address' }).text).toBe(
      'Email address: this is not an email address we can send to. Check it for typos.',
    );
  });

  it("names a feed's own filter field by the label the feed gives it, and marks its input", () => {
    const message = 'body/filter/fields/route: transit.disruptions cannot be filtered by route (its filter fields are keywords)';
    expect(explainBadInput(message, { 'field-route': 'Routes' })).toEqual({ field: 'field-route', text: 'Routes: this feed cannot be filtered this way.' });
    expect(explainBadInput('body/filter/fields/route/0 must NOT have more than 100 characters', { 'field-route': 'Routes' }).text).toBe(
      'Routes: each entry can have at most 100 characters.',
    );
  });

  it("a 400 about no known field keeps the service's words", () => {
    expect(explainBadInput('body/filter must NOT have additional properties')).toEqual({
      field: null,
      text: 'Please check your entries: body/filter must NOT have additional properties',
    });
  });

  it.each([
    [
      'at most 3 verification messages per destination (an email address or a phone number) per day (SubscriptionLimits__MaxVerificationsPerAddressPerDay)',
      'This address has had all its confirmation messages for today. You can try again in 2 hours (at 00:00).',
    ],
    [
      'at most 3 subscriptions may be created per address per day (SubscriptionLimits__MaxPerIpPerDay)',
      'As many subscriptions as may be made from one connection in a day have been made from yours. Please try again in 2 hours (at 00:00).',
    ],
    [
      'at most 3 subscriptions per address: delete one first (SubscriptionLimits__MaxPerIp)',
      'You have reached the limit of subscriptions from one connection. Delete one you no longer need from its manage page, or try again in 2 hours (at 00:00).',
    ],
    [
      'at most 2 subscriptions per user: delete one first (SubscriptionLimits__MaxSubscriptionsPerUser)',
      'Your account has all the subscriptions it may have. Delete one you no longer need from its manage page to make another.',
    ],
  ])('a 429 on subscribe for %s says what helps, and when to try again from Retry-After', (message, text) => {
    expect(explainFailure(failure(429, message, '7200'), 'subscribe', NOW, { formatTime: clock }).text).toBe(text);
  });

  it("a 429 on test names the cooldown's end", () => {
    expect(explainFailure(failure(429, 'one test per 300 s', '240'), 'test', NOW, { formatTime: clock }).text).toBe(
      'A test was sent a short while ago. You can send another one in 4 minutes (at 22:04).',
    );
    expect(explainFailure(failure(429, '', null), 'test', NOW, { formatTime: clock }).text).toBe(
      'A test was sent a short while ago. You can send another one later.',
    );
  });

  it.each([
    [0, 'subscribe', 'The service could not be reached. Check your connection and try again.'],
    [503, 'catalog', 'The list of feeds could not be loaded. Reload the page to try again.'],
    [500, 'subscribe', 'Something went wrong on our side. Please try again in a few minutes.'],
    [413, 'subscribe', 'That is too much text. Please shorten your lists and try again.'],
    [
      401,
      'view',
      'This manage link is incomplete: the part after “#” is missing. Use the full “Manage this subscription” link from the page where you subscribed.',
    ],
    [403, 'delete', 'This manage link does not match the subscription. Use the full “Manage this subscription” link from the page where you subscribed.'],
    [404, 'view', 'This subscription does not exist. It may have been deleted.'],
  ] as const)('%i on %s reads in plain words', (status, action, text) => {
    expect(explainFailure(failure(status, 'internal words'), action, NOW, { formatTime: clock })).toEqual({ field: null, text });
  });

  it('a 409 on test tells an unconfirmed address from a stopped subscription', () => {
    expect(explainFailure(failure(409, 'subscription x is not active: its address is not verified yet'), 'test', NOW, { formatTime: clock }).text).toMatch(
      /starts once you confirm it/,
    );
    expect(explainFailure(failure(409, 'subscription x is not active'), 'test', NOW, { formatTime: clock }).text).toBe(
      'This subscription is no longer active, so no test can be sent.',
    );
  });
});

describe('a refused confirmation code in words', () => {
  const refused = (message: string, status = 400) => codeFailureWords({ status, body: { message }, retryAfter: null });
  it.each([
    ['body/code is wrong (4 tries left)', 'That is not the code we sent. 4 tries left.'],
    ['body/code is wrong (1 try left)', 'That is not the code we sent. 1 try left.'],
    ['body/code is wrong (0 tries left)', 'That is not the code we sent, and no try is left. Reply YES to the text, or subscribe again for a new code.'],
    [
      'body/code has expired: reply YES to the text, or subscribe again for a new code',
      'That code has expired. Reply YES to the text, or subscribe again for a new code.',
    ],
    [
      'body/code: 5 wrong tries; reply YES to the text, or subscribe again for a new code',
      'Too many wrong tries. Reply YES to the text, or subscribe again for a new code.',
    ],
    ['body/code: no code was sent yet; wait for the text', 'The text is not sent yet. Wait for it, then type its code.'],
    ['body/code must match pattern "^\\s*[0-9]{6}\\s*$"', 'Type the 6 digits of the code.'],
  ])('%s → %s', (message, words) => {
    expect(refused(message)).toBe(words);
  });
  it('says when the service was not reached, or answered otherwise', () => {
    expect(refused('', 0)).toBe('The service could not be reached. Check your connection and try again.');
    expect(refused('', 404)).toBe('That did not work (the service answered 404). Reply to the text message instead.');
  });
});
