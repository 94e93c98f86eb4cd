import ICAL from 'ical.js';
import nodeIcal, { type VEvent } from 'node-ical';

/** One VEVENT as ical.js reads it, with its zone resolved through the calendar's own VTIMEZONE. */
export interface IcalJsEvent {
  uid: string;
  sequence: number;
  status: string;
  summary: string;
  location: string;
  description: string;
  start: Date;
  end: Date;
  /** TZID of DTSTART, and its offset from UTC at that time in seconds, as the VTIMEZONE defines it. */
  tzid: string;
  utcOffsetSeconds: number;
  stamp: string;
}

/** Parses a calendar with ical.js (Mozilla's parser), strictly: its own VTIMEZONEs are the only zones it knows. */
export function parseWithIcalJs(text: string): { name: string; events: IcalJsEvent[]; timezones: string[] } {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const zones = calendar.getAllSubcomponents('vtimezone').map((vtimezone) => new ICAL.Timezone(vtimezone));
  const zoneOf = new Map(zones.map((zone) => [zone.tzid, zone]));
  const events = calendar.getAllSubcomponents('vevent').map((vevent) => {
    const event = new ICAL.Event(vevent);
    const tzid = String(vevent.getFirstProperty('dtstart')?.getParameter('tzid') ?? 'UTC');
    const zone = zoneOf.get(tzid);
    if (tzid !== 'UTC' && !zone) throw new Error(`DTSTART names ${tzid} but the calendar has no VTIMEZONE for it`);
    const start = event.startDate;
    const end = event.endDate;
    if (zone) {
      start.zone = zone;
      end.zone = zone;
    }
    return {
      uid: event.uid,
      sequence: event.sequence,
      status: String(vevent.getFirstPropertyValue('status')),
      summary: event.summary,
      location: event.location,
      description: event.description,
      start: start.toJSDate(),
      end: end.toJSDate(),
      tzid,
      utcOffsetSeconds: start.utcOffset(),
      stamp: String(vevent.getFirstProperty('dtstamp')?.toICALString()),
    };
  });
  return { name: String(calendar.getFirstPropertyValue('x-wr-calname')), events, timezones: zones.map((zone) => zone.tzid) };
}

/** The VEVENTs as node-ical imports them: a second, independent implementation. */
export function parseWithNodeIcal(text: string) {
  return Object.values(nodeIcal.sync.parseICS(text)).filter((component): component is VEvent => component?.type === 'VEVENT');
}
