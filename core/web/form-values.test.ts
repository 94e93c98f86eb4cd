import { describe, expect, it } from 'vitest';
import { createRequest, derivedName, eventTypeWords, pushServerAndTopic, splitList } from './static/form-values.js';

const powerOutages = { id: 'utility.power-outages', displayName: 'Power outages', eventTypes: ['NewOutage', 'Restoration'], filterableFields: ['Feeder', 'Area', 'Keywords'] };
const blank = { feedId: powerOutages.id, areas: '', feeders: '', keywords: '', eventTypes: [], provider: 'Push', email: '', name: '' };

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
    [['Kandy', 'Peradeniya'], [], 'Power outages in Kandy, Peradeniya'],
    [[], ['F12'], 'Power outages on feeder F12'],
    [['Kandy'], ['F12', 'F7'], 'Power outages in Kandy, on feeders F12, F7'],
  ])('with areas %j and feeders %j the derived name is "%s"', (areas, feeders, name) => {
    expect(derivedName('Power outages', areas, feeders)).toBe(name);
  });

  it('cuts a long derived name to the 100 characters the API takes', () => {
    const name = derivedName('Power outages', Array.from({ length: 30 }, (_, i) => `Area${i}`), []);
    expect([...name]).toHaveLength(100);
    expect(name.endsWith('…')).toBe(true);
  });

  it('sends no filter and a derived name when nothing is chosen, and no destination for Push', () => {
    expect(createRequest(powerOutages, blank)).toEqual({ displayName: 'Power outages', feedId: 'utility.power-outages', filter: {}, delivery: { provider: 'Push' } });
  });

  it('maps Areas, Feeders and Keywords to the API names, keeps ticked event types, and the given name', () => {
    const body = createRequest(powerOutages, { ...blank, areas: 'Kandy', feeders: 'F12', keywords: 'line', eventTypes: ['NewOutage'], name: '  Home  ' });
    expect(body).toEqual({
      displayName: 'Home',
      feedId: 'utility.power-outages',
      filter: { locationKeywords: ['Kandy'], feeders: ['F12'], keywords: ['line'], eventTypes: ['NewOutage'] },
      delivery: { provider: 'Push' },
    });
  });

  it('leaves out filters the feed cannot apply and event types it does not send', () => {
    const areasOnly = { ...powerOutages, filterableFields: ['Area'] };
    const body = createRequest(areasOnly, { ...blank, areas: 'Kandy', feeders: 'F12', keywords: 'line', eventTypes: ['Gone'] });
    expect(body.filter).toEqual({ locationKeywords: ['Kandy'] });
  });

  it('sends the trimmed email address for Email', () => {
    expect(createRequest(powerOutages, { ...blank, provider: 'Email', email: ' me@example.org ' }).delivery).toEqual({ provider: 'Email', destination: 'me@example.org' });
  });

  it('splits a subscribe link into the server and the topic the app asks for', () => {
    expect(pushServerAndTopic('https://push.example.org/alerts-abc')).toEqual({ server: 'https://push.example.org', topic: 'alerts-abc' });
    expect(pushServerAndTopic('https://example.org/ntfy/alerts-abc')).toEqual({ server: 'https://example.org/ntfy', topic: 'alerts-abc' });
  });
});
