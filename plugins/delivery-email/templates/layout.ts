import { escapeHtml } from './html.ts';
import type { EventTemplate } from './event-templates.ts';

/**
 * The one layout, as MJML with placeholders. MJML compiles a template once
 * per process (it is slow: ~400 ms to import, ms per compile); each email
 * is then the compiled HTML with its values substituted, escaped, in one
 * pass. Placeholders are plain words MJML leaves untouched.
 */
export const SLOT = {
  title: '__NP_TITLE__',
  preview: '__NP_PREVIEW__',
  body: '__NP_BODY__',
  name: '__NP_NAME__',
  link: '__NP_LINK__',
  feed: '__NP_FEED__',
  hours: '__NP_HOURS__',
} as const;
export type SlotName = keyof typeof SLOT;
export const SLOT_PATTERN = /__NP_(TITLE|PREVIEW|BODY|NAME|LINK|FEED|HOURS)__/g;

interface LayoutParts {
  accent: string;
  /** Static texts of the template (escaped here all the same). */
  label: string;
  intro: string;
  /** MJML of the part under the intro: the body, a button. */
  main: string;
  /** HTML of the small print, with slots. */
  footer: string;
}

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
        <mj-text color="#ffffff" font-size="13px" font-weight="bold" letter-spacing="1px" padding="0">${escapeHtml(parts.label.toUpperCase())}</mj-text>
      </mj-column>
    </mj-section>
    <mj-section background-color="#ffffff" padding="24px">
      <mj-column>
        <mj-text font-size="20px" line-height="28px" font-weight="bold">${SLOT.title}</mj-text>
        <mj-text color="#52606d">${escapeHtml(parts.intro)}</mj-text>
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

/** A notification: the renderer's title and body, and the unsubscribe link in the small print. */
export function notificationMjml(template: EventTemplate): string {
  return layout({
    accent: template.accent,
    label: template.label,
    intro: template.intro,
    main: `<mj-text>${SLOT.body}</mj-text>`,
    footer:
      `You receive this email because of your subscription &ldquo;${SLOT.name}&rdquo;. ` +
      `<a href="${SLOT.link}" style="color:#7b8794">Unsubscribe</a> at any time, with one click.`,
  });
}

/** The verification email: a button to confirm, and no unsubscribe (nothing is sent unless confirmed). */
export function verificationMjml(): string {
  return layout({
    accent: '#1d4ed8',
    label: 'Confirm your address',
    intro: 'Someone, probably you, asked for email alerts at this address.',
    main:
      `<mj-text>Subscription: <strong>${SLOT.name}</strong><br />Feed: ${SLOT.feed}</mj-text>` +
      `<mj-button href="${SLOT.link}" background-color="#1d4ed8" color="#ffffff" font-size="15px" align="left" padding="8px 0 16px 0">Confirm my address</mj-button>` +
      `<mj-text font-size="13px" color="#52606d">Or open this link: <a href="${SLOT.link}" style="color:#1d4ed8;word-break:break-all">${SLOT.link}</a><br />It is valid for ${SLOT.hours} hours and works once.</mj-text>`,
    footer: 'If you did not ask for this, ignore this email: nothing more is sent to this address unless it is confirmed.',
  });
}
