import type { Translate } from '#plugin-api';
import { escapeHtml } from './html.ts';

/**
 * The one layout, as MJML with placeholders. MJML compiles it once per
 * process (it is slow: ~400 ms to import, ms per compile); each email is
 * then the compiled HTML with its values substituted, escaped, in one
 * pass. Placeholders are plain words MJML leaves untouched; the banner's
 * colour is a placeholder colour (MJML checks colours), replaced the same
 * way, so one compiled layout serves every feed's look.
 */
export const SLOT = {
  title: '__NP_TITLE__',
  preview: '__NP_PREVIEW__',
  body: '__NP_BODY__',
  name: '__NP_NAME__',
  link: '__NP_LINK__',
  feed: '__NP_FEED__',
  hours: '__NP_HOURS__',
  label: '__NP_LABEL__',
  intro: '__NP_INTRO__',
} as const;
export type SlotName = keyof typeof SLOT | 'accent';
/** A colour no look uses, standing for the banner's until the email is filled. */
export const ACCENT_SLOT = '#0a0b0c';
export const SLOT_PATTERN = /__NP_(TITLE|PREVIEW|BODY|NAME|LINK|FEED|HOURS|LABEL|INTRO)__|#0a0b0c/gi;

interface LayoutParts {
  accent: string;
  /** The banner's words and the sentence under the title: placeholders, or fixed texts (escaped here). */
  label: string;
  intro: string;
  /** MJML of the part under the intro: the body, a button. */
  main: string;
  /** HTML of the small print, with slots. */
  footer: string;
}

const slotOrText = (text: string) => (/^__NP_[A-Z]+__$/.test(text) ? text : escapeHtml(text));

function layout(parts: LayoutParts): string {
  return `<mjml>
  <mj-head>
    <mj-title>${SLOT.title}</mj-title>
    <mj-preview>${SLOT.preview}</mj-preview>
    <mj-attributes>
      <mj-all font-family="Helvetica, Arial, sans-serif" />
      <mj-text font-size="15px" line-height="22px" color="#1f2933" padding="0 0 12px 0" />
    </mj-attributes>
  </mj-head>
  <mj-body background-color="#f3f4f6" width="600px">
    <mj-section background-color="${parts.accent}" padding="12px 24px">
      <mj-column>
        <mj-text color="#ffffff" font-size="13px" font-weight="bold" letter-spacing="1px" padding="0">${slotOrText(parts.label)}</mj-text>
      </mj-column>
    </mj-section>
    <mj-section background-color="#ffffff" padding="24px">
      <mj-column>
        <mj-text font-size="20px" line-height="28px" font-weight="bold">${SLOT.title}</mj-text>
        <mj-text color="#52606d">${slotOrText(parts.intro)}</mj-text>
        ${parts.main}
      </mj-column>
    </mj-section>
    <mj-section padding="16px 24px">
      <mj-column>
        <mj-text font-size="12px" line-height="18px" color="#7b8794" padding="0">${parts.footer}</mj-text>
      </mj-column>
    </mj-section>
  </mj-body>
</mjml>`;
}

/** A notification: the feed's look, the renderer's title and body, and the unsubscribe link in the small print; the words in `t`'s language. */
export function notificationMjml(t: Translate): string {
  return layout({
    accent: ACCENT_SLOT,
    label: SLOT.label,
    intro: SLOT.intro,
    main: `<mj-text>${SLOT.body}</mj-text>`,
    footer:
      `${escapeHtml(t('notice.because', { name: SLOT.name }))} ` +
      `<a href="${SLOT.link}" style="color:#7b8794">${escapeHtml(t('notice.unsubscribe'))}</a> ${escapeHtml(t('notice.anyTime'))}`,
  });
}

/** The verification email: a button to confirm, and no unsubscribe (nothing is sent unless confirmed); the words in `t`'s language. */
export function verificationMjml(t: Translate): string {
  return layout({
    accent: '#1d4ed8',
    label: t('verify.label'),
    intro: t('verify.intro'),
    main:
      `<mj-text>${escapeHtml(t('verify.subscription'))} <strong>${SLOT.name}</strong><br />${escapeHtml(t('verify.feed'))} ${SLOT.feed}</mj-text>` +
      `<mj-button href="${SLOT.link}" background-color="#1d4ed8" color="#ffffff" font-size="15px" align="left" padding="8px 0 16px 0">${escapeHtml(t('verify.button'))}</mj-button>` +
      `<mj-text font-size="13px" color="#52606d">${escapeHtml(t('verify.orOpen'))} <a href="${SLOT.link}" style="color:#1d4ed8;word-break:break-all">${SLOT.link}</a><br />${escapeHtml(t('verify.valid', { hours: SLOT.hours }))}</mj-text>`,
    footer: escapeHtml(t('verify.ignore')),
  });
}
