import { XMLBuilder } from 'fast-xml-parser';
import type { CapContent, CapMsgType, CapProfile } from '../plugin-api/public-views.ts';
import { xmlSafe } from './xml-text.ts';

const CAP_NAMESPACE = 'urn:oasis:names:tc:emergency:cap:1.2';
export const CAP_CONTENT_TYPE = 'application/cap+xml; charset=utf-8';

/** An earlier alert of the same sender that this one updates or cancels. */
export interface CapReference {
  readonly identifier: string;
  readonly sent: Date;
}

export interface CapAlertInput {
  readonly identifier: string;
  /** Host name of PublicBaseUrl. */
  readonly sender: string;
  readonly sent: Date;
  readonly msgType: CapMsgType;
  /** Earlier alerts, oldest first; written only for an Update or Cancel. */
  readonly references: readonly CapReference[];
  readonly profile: CapProfile;
  readonly content: CapContent;
  /** The item's shape as CAP polygons (`lat,lon` pairs, first = last), written in its area. */
  readonly polygons?: readonly string[];
}

/**
 * CAP dateTime: whole seconds with a numeric offset. The standard forbids
 * "Z" and writes UTC as "-00:00" (CAP 1.2, section 3.3.2).
 */
export function capDateTime(date: Date): string {
  return `${date.toISOString().slice(0, 19)}-00:00`;
}

// identifier, sender and references must not hold spaces, commas, "<" or "&" (CAP 1.2, 3.2.1).
const CAP_TOKEN = /^[^\s,<&]+$/;
function token(name: string, value: string): string {
  if (!CAP_TOKEN.test(value)) throw new Error(`CAP ${name} "${value}" holds a space, comma, < or &`);
  return value;
}

const builder = new XMLBuilder({ format: true, indentBy: '  ', ignoreAttributes: false, suppressEmptyNode: true });

/**
 * One CAP 1.2 alert with one info block, its elements in the order the
 * standard's data dictionary fixes. Keys are written in insertion order, so
 * the object literals below are that order.
 */
export function renderCapAlert(input: CapAlertInput): string {
  const { profile, content } = input;
  const references = input.msgType === 'Alert' ? [] : input.references;
  const alert = {
    '@_xmlns': CAP_NAMESPACE,
    identifier: token('identifier', input.identifier),
    sender: token('sender', input.sender),
    sent: capDateTime(input.sent),
    status: 'Actual',
    msgType: references.length > 0 ? input.msgType : 'Alert',
    scope: 'Public',
    ...(references.length > 0
      ? { references: references.map((ref) => `${input.sender},${token('identifier', ref.identifier)},${capDateTime(ref.sent)}`).join(' ') }
      : {}),
    info: {
      language: 'en',
      category: 'Infra',
      event: xmlSafe(profile.event),
      urgency: profile.urgency,
      severity: profile.severity,
      certainty: profile.certainty,
      ...(content.onset ? { onset: capDateTime(content.onset) } : {}),
      ...(content.expires ? { expires: capDateTime(content.expires) } : {}),
      headline: xmlSafe(content.headline),
      description: xmlSafe(content.description),
      ...(content.instruction ? { instruction: xmlSafe(content.instruction) } : {}),
      area: { areaDesc: xmlSafe(content.areas.join(', ') || 'All areas'), ...(input.polygons?.length ? { polygon: [...input.polygons] } : {}) },
    },
  };
  return `<?xml version="1.0" encoding="UTF-8"?>\n${builder.build({ alert })}`;
}
