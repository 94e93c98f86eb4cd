import { personPage, PERSON_PAGE_HEADERS } from '#plugin-api';

/** The headers of the pages the email links open (the site's own look and CSP). */
export const PAGE_HEADERS = PERSON_PAGE_HEADERS;

export const verifiedPage = (displayName: string) =>
  personPage({ title: 'Address confirmed', tone: 'good', paragraphs: [`Your email alerts “${displayName}” are on. Every email has a link to stop them.`] });

/** The verify link opened again (a second click, a reopened tab): the address is confirmed already. */
export const alreadyVerifiedPage = (displayName: string) =>
  personPage({
    title: 'Already confirmed',
    tone: 'good',
    paragraphs: [`Your email alerts “${displayName}” are on: this link was used before, and nothing more is needed.`],
  });

export const badVerifyLinkPage = () =>
  personPage({
    title: 'This link does not work',
    tone: 'bad',
    paragraphs: [
      'The confirmation link is wrong, has expired, or belongs to alerts that were stopped. If your alerts are not on yet, subscribe again to get a new link.',
    ],
  });

/** The page the List-Unsubscribe link opens: a GET changes nothing (mail scanners follow links); the button posts. */
export function unsubscribeConfirmPage(displayName: string, active: boolean, actionUrl: string): string {
  if (!active) return personPage({ title: 'Already unsubscribed', paragraphs: [`You no longer get the email alerts “${displayName}”.`] });
  return personPage({
    title: 'Unsubscribe?',
    paragraphs: [`Stop the email alerts “${displayName}”?`],
    form: { action: actionUrl, fields: { 'List-Unsubscribe': 'One-Click' }, button: 'Unsubscribe' },
  });
}

export const unsubscribedPage = (displayName: string) =>
  personPage({ title: 'Unsubscribed', tone: 'good', paragraphs: [`You will get no more email alerts “${displayName}”.`] });

export const badUnsubscribeLinkPage = () =>
  personPage({
    title: 'This link does not work',
    tone: 'bad',
    paragraphs: ['The unsubscribe link is wrong or incomplete. Try the link of a more recent email.'],
  });
