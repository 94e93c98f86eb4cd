import { describe, expect, it } from 'vitest';
import { capSchemaErrors, childOrder, parseCap, referencesOf } from '../../test/helpers/cap-validation.ts';
import type { CapProfile } from '../plugin-api/public-views.ts';
import { capDateTime, renderCapAlert, type CapAlertInput } from './cap-document.ts';
import { capPolygons } from '../places/index.ts';

const profile: CapProfile = { msgType: 'Update', event: 'Power outage', urgency: 'Past', severity: 'Minor', certainty: 'Observed' };
const input = (patch: Partial<CapAlertInput> = {}): CapAlertInput => ({
  identifier: 'utility.power-outages-7',
  sender: 'alerts.example.org',
  sent: new Date('2026-11-22T04:30:00.123Z'),
  msgType: 'Update',
  references: [
    { identifier: 'utility.power-outages-3', sent: new Date('2026-11-22T02:45:00Z') },
    { identifier: 'utility.power-outages-5', sent: new Date('2026-11-22T03:10:00Z') },
  ],
  profile,
  content: {
    headline: 'Power restored: Kandy',
    description: 'Feeder: F12\nAreas: Kandy',
    areas: ['Kandy', 'Peradeniya'],
    onset: new Date('2026-11-22T02:45:00Z'),
  },
  ...patch,
});

// The element order CAP 1.2's data dictionary fixes, restricted to the elements this service writes.
const ALERT_ORDER = [
  'identifier',
  'sender',
  'sent',
  'status',
  'msgType',
  'source',
  'scope',
  'restriction',
  'addresses',
  'code',
  'note',
  'references',
  'incidents',
  'info',
];
const INFO_ORDER = [
  'language',
  'category',
  'event',
  'responseType',
  'urgency',
  'severity',
  'certainty',
  'audience',
  'eventCode',
  'effective',
  'onset',
  'expires',
  'senderName',
  'headline',
  'description',
  'instruction',
  'web',
  'contact',
  'parameter',
  'resource',
  'area',
];
const inStandardOrder = (names: string[], order: string[]) => names.every((name, i) => i === 0 || order.indexOf(names[i - 1]) < order.indexOf(name));

describe('renderCapAlert', () => {
  it("writes an Update that passes the schema, its elements in the standard's order, with the references triples", async () => {
    const xml = renderCapAlert(input());
    expect(await capSchemaErrors(xml)).toEqual([]);
    const alertChildren = childOrder(xml, ['alert']);
    expect(alertChildren).toEqual(['identifier', 'sender', 'sent', 'status', 'msgType', 'scope', 'references', 'info']);
    expect(inStandardOrder(alertChildren, ALERT_ORDER)).toBe(true);
    const infoChildren = childOrder(xml, ['alert', 'info']);
    expect(infoChildren).toEqual(['language', 'category', 'event', 'urgency', 'severity', 'certainty', 'onset', 'headline', 'description', 'area']);
    expect(inStandardOrder(infoChildren, INFO_ORDER)).toBe(true);
    const alert = parseCap(xml);
    expect(alert).toMatchObject({
      identifier: 'utility.power-outages-7',
      sender: 'alerts.example.org',
      sent: '2026-11-22T04:30:00-00:00',
      status: 'Actual',
      msgType: 'Update',
      scope: 'Public',
    });
    expect(alert.info).toMatchObject({
      category: 'Infra',
      event: 'Power outage',
      urgency: 'Past',
      severity: 'Minor',
      certainty: 'Observed',
      onset: '2026-11-22T02:45:00-00:00',
      headline: 'Power restored: Kandy',
    });
    expect(alert.info.area.areaDesc).toBe('Kandy, Peradeniya');
    expect(referencesOf(alert)).toEqual([
      { sender: 'alerts.example.org', identifier: 'utility.power-outages-3', sent: '2026-11-22T02:45:00-00:00' },
      { sender: 'alerts.example.org', identifier: 'utility.power-outages-5', sent: '2026-11-22T03:10:00-00:00' },
    ]);
  });

  it('sends an update with nothing earlier stored as a new Alert, without references', async () => {
    const alert = parseCap(renderCapAlert(input({ references: [] })));
    expect(alert.msgType).toBe('Alert');
    expect(alert.references).toBeUndefined();
  });

  it('never writes references on an Alert', () => {
    expect(parseCap(renderCapAlert(input({ msgType: 'Alert' }))).references).toBeUndefined();
  });

  it("carries the item's shape as area polygons: lat,lon pairs, closed, one per polygon, valid against the schema", async () => {
    const geometry = {
      type: 'MultiPolygon' as const,
      coordinates: [
        [
          [
            [80.63, 7.29],
            [80.64, 7.29],
            [80.64, 7.3],
            [80.63, 7.29],
          ] as Array<[number, number]>,
          [
            [80.634, 7.294],
            [80.636, 7.294],
            [80.636, 7.296],
            [80.634, 7.294],
          ] as Array<[number, number]>,
        ],
        [
          [
            [80.7, 7.29],
            [80.71, 7.29],
            [80.71, 7.3],
            [80.7, 7.29],
          ] as Array<[number, number]>,
        ],
      ],
    };
    const xml = renderCapAlert(input({ polygons: capPolygons(geometry) }));
    expect(await capSchemaErrors(xml)).toEqual([]);
    expect(childOrder(xml, ['alert', 'info', 'area'])).toEqual(['areaDesc', 'polygon', 'polygon']);
    // The outer rings only (CAP has no holes), latitude first.
    expect((parseCap(xml).info.area as { polygon?: string[] }).polygon).toEqual([
      '7.29,80.63 7.29,80.64 7.3,80.64 7.29,80.63',
      '7.29,80.7 7.29,80.71 7.3,80.71 7.29,80.7',
    ]);
  });

  it('names "All areas" when the event names none', () => {
    expect(parseCap(renderCapAlert(input({ content: { headline: 'h', description: 'd', areas: [] } }))).info.area.areaDesc).toBe('All areas');
  });

  it('keeps hostile stored text well-formed and valid: markup escaped, control characters and lone surrogates replaced', async () => {
    const nasty = 'Cable <b>cut</b> & "fixed" ]]> \u0001bell\u0007 \ud800 done';
    const xml = renderCapAlert(input({ content: { headline: nasty, description: nasty, areas: ['A & B', '<C>'] } }));
    expect(await capSchemaErrors(xml)).toEqual([]);
    const alert = parseCap(xml);
    expect(alert.info.headline).toBe('Cable <b>cut</b> & "fixed" ]]> \uFFFDbell\uFFFD \uFFFD done');
    expect(alert.info.area.areaDesc).toBe('A & B, <C>');
  });

  it('refuses an identifier CAP forbids rather than writing an invalid alert', () => {
    expect(() => renderCapAlert(input({ identifier: 'has space' }))).toThrow(/identifier/);
    expect(() => renderCapAlert(input({ sender: 'a,b' }))).toThrow(/sender/);
  });
});

describe('capDateTime', () => {
  it.each([
    ['2026-11-22T04:30:00.999Z', '2026-11-22T04:30:00-00:00'],
    ['2026-11-21T23:45:00+05:30', '2026-11-21T18:15:00-00:00'],
  ])('%s → %s (whole seconds, numeric UTC offset written -00:00, never Z)', (iso, expected) => {
    expect(capDateTime(new Date(iso))).toBe(expected);
  });
});

describe('the CAP schema the tests validate against', () => {
  const valid = renderCapAlert(input());
  it.each([
    ['a msgType CAP does not define', valid.replace('<msgType>Update</msgType>', '<msgType>Notice</msgType>')],
    ['a "Z" time zone', valid.replace('2026-11-22T04:30:00-00:00', '2026-11-22T04:30:00Z')],
    ['elements out of order', valid.replace(/<status>Actual<\/status>\s*<msgType>Update<\/msgType>/, '<msgType>Update</msgType><status>Actual</status>')],
    ['an info without its category', valid.replace(/<category>Infra<\/category>/, '')],
    ['an urgency CAP does not define', valid.replace('<urgency>Past</urgency>', '<urgency>Soon</urgency>')],
    ['an identifier with a comma', valid.replace('<identifier>utility.power-outages-7</identifier>', '<identifier>a,b</identifier>')],
    ['a reference that is not a triple', valid.replace(/<references>[^<]+<\/references>/, '<references>alerts.example.org,only-two</references>')],
    ['an area without areaDesc', valid.replace(/<areaDesc>[^<]+<\/areaDesc>/, '')],
  ])('rejects %s (so passing it means something)', async (_name, xml) => {
    expect(xml).not.toBe(valid);
    expect(await capSchemaErrors(xml)).not.toEqual([]);
  });
});
