import { coreMessages, createTranslator } from '../i18n/index.ts';
import { readSignedIdToken, signedIdToken } from '../http/signed-id.ts';

const PURPOSE = 'confirm';

/** The token of a confirm link: the confirmation, and an HMAC of it under the service's key of links. Pure. */
export const confirmToken = (key: string, confirmationId: number) => signedIdToken(key, PURPOSE, confirmationId);

/** The confirmation a token names, or null when it is not a confirm link of this service. Pure. */
export const readConfirmToken = (key: string, token: string) => readSignedIdToken(key, PURPOSE, token);

/**
 * The line an alert that must be confirmed ends with, in its subscriber's
 * language (pure): the link to the /confirm page (the token in the
 * fragment), or, on a target whose subscribers reply, the word to reply.
 */
export function confirmLine(key: string, publicBaseUrl: string, confirmationId: number, language: string | undefined, byReply: boolean): string {
  const t = createTranslator(coreMessages, language);
  if (byReply) return t('confirm.reply');
  return t('confirm.link', { url: `${publicBaseUrl.replace(/\/+$/, '')}/confirm#${confirmToken(key, confirmationId)}` });
}
