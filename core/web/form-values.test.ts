import { describe, expect, it } from 'vitest';
import {
  fillTemplate,
  createRequest,
  updateRequest,
  deliveredBy,
  derivedName,
  eventTypeWords,
  pickLanguage,
  preferencesChange,
  quietHoursWords,
  splitList,
  withDestination,
} from './static/form-values.js';

const field = (id: string, property = id) => ({ id, property, label: id, hint: '', example: '', match: 'contains' });
const powerOutages = {
  id: 'utility.power-outages',
  displayName: 'Power outages',
  eventTypes: ['NewOutage', 'Restoration'],
  filterFields: [field('locationKeywords'), field('feeders'), field('keywords')],
};
const transit = {
  id: 'transit.disruptions',
  displayName: 'Disruptions',
  eventTypes: ['Disruption'],
  filterFields: [field('route', 'fields.route'), field('keywords')],
};
const blank = { feedId: powerOutages.id, fields: {}, eventTypes: [], provider: 'Push', destination: '', name: '' };

describe('the subscribe form, as a create request', () => {
  it.each([
    ['Kandy', ['Kandy']],
    [' Kandy , ,Peradeniya ', ['Kandy', 'Peradeniya']],
    ['F12, f12, F7', ['F12', 'F7']],
    [' , ', []],
    ['', []],
  ])('splitList(%j) is %j', (text, expected) => {
    expect(splitList(text)).toEqual(expected);
  });

  it.each([
    ['NewOutage', 'New outage'],
    ['RestoredAnnouncement', 'Restored announcement'],
    ['DayBeforeReminder', 'Day before reminder'],
    ['Updated', 'Updated'],
    ['SMSAlert', 'SMS alert'],
  ])('event type %s reads "%s"', (type, words) => {
    expect(eventTypeWords(type)).toBe(words);
  });

  it.each([
    [[], [], 'Power outages'],
    [[['Kandy', 'Peradeniya']], [], 'Power outages: Kandy, Peradeniya'],
    [[[], ['F12']], [], 'Power outages: F12'],
    [[['Kandy'], ['F12', 'F7']], [], 'Power outages: Kandy · F12, F7'],
    [[['Kandy']], [{ name: 'Home', lat: 7.29, lon: 80.63 }], 'Power outages: Home · Kandy'],
    [[], [{ lat: 7.29, lon: 80.63 }], 'Power outages'],
  ])('with values %j and places %j the derived name is "%s", in no words but the feed\'s and the person\'s', (values, places, name) => {
    expect(derivedName('Power outages', values, places)).toBe(name);
  });

  it("sends places only to a feed that gives its items' shapes", () => {
    const home = { name: 'Home', lat: 7.29, lon: 80.63, radiusMeters: 250 };
    expect(updateRequest({ ...powerOutages, hasMap: true }, { ...blank, places: [home] }).filter).toEqual({ places: [home] });
    expect(updateRequest(powerOutages, { ...blank, places: [home] }).filter).toEqual({});
  });

  it('cuts a long derived name to the 100 characters the API takes', () => {
    const name = derivedName('Power outages', [Array.from({ length: 30 }, (_, i) => `Area${i}`)]);
    expect([...name]).toHaveLength(100);
    expect(name.endsWith('…')).toBe(true);
  });

  it('sends no filter and a derived name when nothing is chosen, and no destination to a provider that makes its own', () => {
    expect(createRequest(powerOutages, blank, false)).toEqual({
      displayName: 'Power outages',
      feedId: 'utility.power-outages',
      filter: {},
      delivery: { provider: 'Push' },
    });
  });

  it('a change (PATCH) is the name and the whole filter, built the same way: emptied fields drop their criterion', () => {
    expect(
      updateRequest(powerOutages, {
        ...blank,
        fields: { locationKeywords: 'Galle, galle, Matara' },
        eventTypes: ['Restoration,RestoredAnnouncement'],
        name: '',
      }),
    ).toEqual({
      displayName: 'Power outages: Galle, Matara',
      filter: { locationKeywords: ['Galle', 'Matara'], eventTypes: ['Restoration'] },
    });
    expect(updateRequest(powerOutages, { ...blank, name: 'Home' })).toEqual({ displayName: 'Home', filter: {} });
  });

  it('puts the three older fields under their own properties, keeps ticked event types, and the given name', () => {
    const body = createRequest(
      powerOutages,
      { ...blank, fields: { locationKeywords: 'Kandy', feeders: 'F12', keywords: 'line' }, eventTypes: ['NewOutage'], name: '  Home  ' },
      false,
    );
    expect(body).toEqual({
      displayName: 'Home',
      feedId: 'utility.power-outages',
      filter: { locationKeywords: ['Kandy'], feeders: ['F12'], keywords: ['line'], eventTypes: ['NewOutage'] },
      delivery: { provider: 'Push' },
    });
  });

  it("puts a feed's own field under filter.fields, named by its id", () => {
    const body = createRequest(transit, { ...blank, feedId: transit.id, fields: { route: '12, 138', keywords: 'signal' } }, false);
    expect(body).toMatchObject({ displayName: 'Disruptions: 12, 138 · signal', filter: { fields: { route: ['12', '138'] }, keywords: ['signal'] } });
  });

  it('leaves out fields the feed does not declare and event types it does not send', () => {
    const areasOnly = { ...powerOutages, filterFields: [field('locationKeywords')] };
    const body = createRequest(
      areasOnly,
      { ...blank, fields: { locationKeywords: 'Kandy', feeders: 'F12', keywords: 'line', route: '12' }, eventTypes: ['Gone'] },
      false,
    );
    expect(body.filter).toEqual({ locationKeywords: ['Kandy'] });
  });

  it('sends the trimmed destination to a provider that takes one, whatever it is called', () => {
    expect(createRequest(powerOutages, { ...blank, provider: 'Email', destination: ' me@example.org ' }, true).delivery).toEqual({
      provider: 'Email',
      destination: 'me@example.org',
    });
    expect(createRequest(powerOutages, { ...blank, provider: 'Chat', destination: '@kandy-ops ' }, true).delivery).toEqual({
      provider: 'Chat',
      destination: '@kandy-ops',
    });
    expect(createRequest(powerOutages, { ...blank, provider: 'Push', destination: 'typed anyway' }, false).delivery).toEqual({ provider: 'Push' });
  });

  it("puts the destination into a provider's confirmation words, as its own piece", () => {
    expect(withDestination('We sent a link to {destination}. Open it.', 'me@example.org')).toEqual(['We sent a link to ', 'me@example.org', '. Open it.']);
    expect(withDestination('Check your inbox.', 'me@example.org')).toEqual(['Check your inbox.']);
  });

  it('says how a subscription is delivered: with the destination when the person gave it', () => {
    const email = {
      provider: 'Email',
      displayName: 'Email',
      destination: { required: true, description: '' },
      available: true,
      unavailableReason: null,
      confirmation: null,
      subscribeLinkLabel: 'Open',
    };
    const push = { ...email, provider: 'Push', displayName: 'Push notification', destination: { required: false, description: '' } };
    expect(deliveredBy(email, { provider: 'Email', destination: 'me@example.org' })).toBe('Email to me@example.org');
    expect(deliveredBy(push, { provider: 'Push', destination: 'np-abc' })).toBe('Push notification');
    expect(deliveredBy(undefined, { provider: 'Gone', destination: 'x' })).toBe('Gone');
  });

  it.each<[string, object | undefined, { on: boolean; start: string; end: string }, object]>([
    [
      "quiet hours switched on take this browser's zone",
      undefined,
      { on: true, start: '22:00', end: '06:30' },
      { quietHours: { start: '22:00', end: '06:30', timeZone: 'Asia/Colombo' } },
    ],
    [
      'changed hours keep the zone they had',
      { quietHours: { start: '21:00', end: '06:00', timeZone: 'Europe/London' } },
      { on: true, start: '23:00', end: '07:00' },
      { quietHours: { start: '23:00', end: '07:00', timeZone: 'Europe/London' } },
    ],
    [
      'switched off: none, the other preferences kept',
      { quietHours: { start: '21:00', end: '06:00' }, timeZone: 'UTC' },
      { on: false, start: '21:00', end: '06:00' },
      { timeZone: 'UTC' },
    ],
    ['a blank time is none', {}, { on: true, start: '', end: '06:00' }, {}],
  ])('preferencesChange: %s', (_case, current, quiet, expected) => {
    expect(preferencesChange(current, quiet, 'Asia/Colombo')).toEqual(expected);
  });

  it('quietHoursWords says the hours and their zone, or None', () => {
    expect(quietHoursWords({ quietHours: { start: '22:00', end: '06:30' } }, 'Asia/Colombo')).toBe(
      '22:00 to 06:30 (Asia/Colombo); urgent alerts still come at once',
    );
    expect(quietHoursWords({}, 'UTC')).toBe('None');
  });

  it.each<[string, string[], string]>([
    ["the first the service writes, in the browser's order", ['fr-FR', 'ta-IN', 'si'], 'ta'],
    ['a regional tag by its language', ['si-LK'], 'si'],
    ['English when none is written', ['fr', 'de'], 'en'],
    ['English for a browser that says nothing', [], 'en'],
    ['a whole tag the service offers (the pseudo-locale) before its language', ['en-XA', 'en'], 'en-XA'],
    ['en-GB as English', ['en-GB'], 'en'],
  ])('pickLanguage: %s', (_case, browser, expected) => {
    expect(pickLanguage(browser, ['en', 'si', 'ta', 'en-XA'], 'en')).toBe(expected);
  });

  it('a create sends the language chosen, English as no preference', () => {
    expect(createRequest(powerOutages, { ...blank, language: 'si' }, false)).toMatchObject({ preferences: { language: 'si' } });
    expect(createRequest(powerOutages, { ...blank, language: 'en' }, false)).not.toHaveProperty('preferences');
  });

  it('a change keeps the language it had unless another is chosen; English clears it', () => {
    const off = { on: false, start: '', end: '' };
    expect(preferencesChange({ language: 'ta' }, off, 'UTC')).toEqual({ language: 'ta' });
    expect(preferencesChange({ language: 'ta' }, off, 'UTC', 'si')).toEqual({ language: 'si' });
    expect(preferencesChange({ language: 'ta' }, off, 'UTC', 'en')).toEqual({});
  });
});

describe('fillTemplate', () => {
  it("puts each value where the language's sentence has its placeholder, and never reads a value for placeholders", () => {
    expect(fillTemplate('You will get your alerts “@name” by @by at @destination.', { name: 'Home', by: 'Email', destination: 'a@b.lk' })).toEqual([
      'You will get your alerts “',
      'Home',
      '” by ',
      'Email',
      ' at ',
      'a@b.lk',
      '.',
    ]);
    // Tamil puts the destination before the verb; a name that looks like a placeholder stays text.
    expect(fillTemplate('“@name” @by மூலம் @destination க்கு வரும்.', { name: '@destination', by: 'SMS', destination: '+94' }).join('')).toBe(
      '“@destination” SMS மூலம் +94 க்கு வரும்.',
    );
    expect(fillTemplate('@missing stays', {})).toEqual(['', '@missing', ' stays']);
    // Only the values given: not what every object inherits.
    expect(fillTemplate('@constructor', {}).join('')).toBe('@constructor');
  });
});
