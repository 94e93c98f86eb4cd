import { fitsIn, shortenToFit } from './sms-segments.ts';

/**
 * A notification as one text (pure): the title, a line break, the body,
 * shortened on a word boundary to fit `maxSegments`; the link to the manage
 * page ends it only when it still fits whole.
 */
export function notificationText(title: string, body: string, link: string | null, maxSegments: number): string {
  const text = body.trim() === '' ? title.trim() : `${title.trim()}\n${body.trim()}`;
  if (link !== null) {
    const withLink = `${text}\n${link}`;
    if (fitsIn(withLink, maxSegments)) return withLink;
  }
  return shortenToFit(text, maxSegments);
}

/** The verification text: the code, and that YES confirms too. */
export function verificationText(code: string, feedName: string, ttlMinutes: number): string {
  return shortenToFit(`Your code for ${feedName} alerts: ${code}. Or reply YES to confirm this number. It expires in ${ttlMinutes} minutes. Reply STOP to stop.`, 2);
}
