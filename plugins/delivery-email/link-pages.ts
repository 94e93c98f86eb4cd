import { createTranslator, loadMessages, personPage, PERSON_PAGE_HEADERS } from '#plugin-api';

/** The headers of the pages the email links open (the site's own look and CSP). */
export const PAGE_HEADERS = PERSON_PAGE_HEADERS;

const messages = loadMessages(new URL('./locales/', import.meta.url));

/**
 * The pages of the email links, in a language: the subscription's (the
 * alerts' language its person chose), or the browser's when the link names
 * no subscription. Pure.
 */
export function linkPages(language: string | undefined) {
  const t = createTranslator(messages, language);
  const page = (title: string, paragraphs: string[], tone: 'good' | 'bad' | 'plain', form?: { action: string; button: string }) =>
    personPage({
      title,
      paragraphs,
      tone,
      language,
      homeLink: t('link.home'),
      ...(form ? { form: { action: form.action, fields: { 'List-Unsubscribe': 'One-Click' }, button: form.button } } : {}),
    });
  return {
    verified: (name: string) => page(t('link.verified.title'), [t('link.verified.text', { name })], 'good'),
    /** The verify link opened again (a second click, a reopened tab): the address is confirmed already. */
    alreadyVerified: (name: string) => page(t('link.alreadyVerified.title'), [t('link.alreadyVerified.text', { name })], 'good'),
    badVerifyLink: () => page(t('link.bad.title'), [t('link.badVerify.text')], 'bad'),
    /** The page the List-Unsubscribe link opens: a GET changes nothing (mail scanners follow links); the button posts. */
    unsubscribeConfirm: (name: string, active: boolean, action: string) =>
      active
        ? page(t('link.unsubscribe.title'), [t('link.unsubscribe.text', { name })], 'plain', { action, button: t('link.unsubscribe.button') })
        : page(t('link.alreadyUnsubscribed.title'), [t('link.alreadyUnsubscribed.text', { name })], 'plain'),
    unsubscribed: (name: string) => page(t('link.unsubscribed.title'), [t('link.unsubscribed.text', { name })], 'good'),
    badUnsubscribeLink: () => page(t('link.bad.title'), [t('link.badUnsubscribe.text')], 'bad'),
  };
}
