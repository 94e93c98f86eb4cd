/**
 * The plugin kit: helpers a plugin may use, beside the contract. Each does
 * one job the shipped plugins needed more than once (an outbound client
 * that reaches only public hosts, a rate limiter, an item-state store,
 * zoned time, messages, text cleaning, response schemas, a test context),
 * so a plugin written from the guide does not write them again.
 */
export { ErrorSchema, errorResponses, noContent, pageOrError, textResponse } from './response-schemas.ts';
export { createTranslator, DEFAULT_LOCALE, intlLocale, isLocale, loadMessages, localeOfAcceptLanguage, LOCALES } from './messages.ts';
export { PSEUDO_LOCALE } from './pseudo-locale.ts';
export { eventTypeWords, feedCatalogOf } from './feed-presentation.ts';
export { createValidator } from './validation.ts';
export { feedMonitorSettings, TimeZoneSetting } from './settings.ts';
export { itemStateStore, type ItemStates, type ItemStateStoreSpec } from './item-state-store.ts';
export { occurrenceKey, sequenceId } from './event-keys.ts';
/** What core makes of an answer (which items pass, which are left out and why): for a feed plugin's own tests. */
export { checkAnswer as checkFeedAnswer } from './answer-check.ts';
export { createPluginTestContext, type PluginTestContextOptions } from './test-kit.ts';
export { plainLines, singleLine, stripBidiControls, withoutControls } from './user-text.ts';
export { personPage, PERSON_PAGE_HEADERS, type PersonPage } from './person-page.ts';
export { formatClockTime, formatDateTime, formatLocalDate, localInstant, wallClock, zoneName, type WallClock } from './time-format.ts';
export { backoffSeconds, type RetrySettings } from './retry-policy.ts';
export { retryAfterSeconds } from './retry-after.ts';
export { judgeHttpAnswer, type HttpAnswerWords } from './http-answer.ts';
export { deleteOlderThan, drainInBatches } from './drain-in-batches.ts';
export { randomToken } from './random-token.ts';
export { checkOutboundUrl, isListedHost, isPublicAddress, publicOnlyLookup, type LookupCallback, type OutboundPolicy } from './outbound-url.ts';
export { createOutboundClient, type OutboundClient, type OutboundPost, type OutboundResult } from './outbound-client.ts';
export { Limiter } from './limiter.ts';
export { pgArray } from './pg-array.ts';
export { insertInChunks, parameterChunks } from './bulk-insert.ts';
export { normalisePhoneNumber, subscriberNumber, type SubscriberNumber } from './phone-number.ts';
export { twilioSignature, validTwilioSignature } from './twilio-signature.ts';
export { checkCode, hashCode, MAX_CODE_TRIES, newVerificationCode, type CodeCheck, type StoredCode } from './verification-code.ts';
export {
  codeRefusal,
  createVerificationTables,
  verificationStore,
  type VerificationItem,
  type VerificationResult,
  type VerificationStore,
} from './verification-store.ts';
export { readTwilioAnswer, type TwilioAnswer } from './twilio-answer.ts';
export { verificationCodeRoute, type CodeRouteOptions } from './verification-route.ts';
