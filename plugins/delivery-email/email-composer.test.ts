import { describe, expect, it } from 'vitest';
import { createTranslator, feedCatalogOf, loadMessages } from '#plugin-api';
import { EmailComposer, notificationSubject, verificationSubject } from './email-composer.ts';
import { eventLook } from './templates/event-look.ts';
import { bodyHtml, escapeHtml } from './templates/html.ts';

// Two feeds as their manifests present them; the email plugin knows them only through this catalog.
const feeds = feedCatalogOf([
  {
    id: 'utility.power-outages',
    displayName: 'Power outages',
    eventTypes: ['NewOutage', 'Restoration', 'Quiet'],
    presentation: {
      accent: '#b42318',
      eventTypes: {
        NewOutage: { label: 'Power outage', hint: 'When the power goes off in your area.', intro: 'An outage was reported in an area you follow.' },
        Restoration: { label: 'Power restored', hint: 'When power comes back.', accent: '#027a48' },
      },
    },
    // Its own words in Tamil, as its locales/ta.json would say them.
    messages: new Map([
      ['ta', { 'feed.displayName': 'மின் தடைகள்', 'eventType.NewOutage.label': 'மின் தடை', 'eventType.NewOutage.intro': 'நீங்கள் பின்தொடரும் பகுதியில் மின் தடை.' }],
    ]),
  },
  {
    id: 'utility.water',
    displayName: 'Water supply',
    eventTypes: ['BoilWaterNotice'],
    presentation: { eventTypes: { BoilWaterNotice: { label: 'Boil water notice', hint: 'When tap water must be boiled.' } } },
  },
]);
const composer = new EmailComposer({ publicBaseUrl: 'https://alerts.example.org/', unsubscribeToken: (publicId) => `tok-${publicId}`, feeds });
const notification = (template: string, params: Partial<{ title: string; body: string; name: string; publicId: string; language: string }> = {}) =>
  composer.compose({
    kind: 'notification',
    template,
    params: { title: 'Power outage: Kandy', body: 'Feeder: F12\nAreas: Kandy', name: 'Home', publicId: 'pub1', ...params },
  });

const ownWords = loadMessages(new URL('./locales/', import.meta.url));

describe('email templates', () => {
  it("takes each email's look from its feed: label, intro (or hint) and accent; /test and unknown types have their own", () => {
    const look = (key: string, language = 'en') => eventLook(feeds, key, language, createTranslator(ownWords, language));
    expect(look('utility.power-outages/NewOutage')).toEqual({
      label: 'Power outage',
      intro: 'An outage was reported in an area you follow.',
      accent: '#b42318',
    });
    expect(look('utility.power-outages/Restoration')).toEqual({ label: 'Power restored', intro: 'When power comes back.', accent: '#027a48' });
    expect(look('utility.power-outages/Quiet')).toMatchObject({ label: 'Quiet', accent: '#b42318' });
    expect(look('utility.water/Test').label).toBe('Test');
    expect(look('utility.gone/Leak')).toEqual({ label: 'Notification', intro: 'News from a feed you follow.', accent: '#1d4ed8' });
    // In Tamil: the feed's own words where its locales have them, English where they do not; this plugin's own in Tamil.
    expect(look('utility.power-outages/NewOutage', 'ta')).toEqual({ label: 'மின் தடை', intro: 'நீங்கள் பின்தொடரும் பகுதியில் மின் தடை.', accent: '#b42318' });
    expect(look('utility.power-outages/Restoration', 'ta').label).toBe('Power restored');
    expect(look('utility.water/Test', 'ta').label).toBe('சோதனை');
    expect(look('utility.gone/Leak', 'ta').label).toBe('அறிவிப்பு');
  });

  it.each([
    ['utility.power-outages/NewOutage', 'POWER OUTAGE', '#b42318'],
    ['utility.power-outages/Restoration', 'POWER RESTORED', '#027a48'],
    ['utility.water/BoilWaterNotice', 'BOIL WATER NOTICE', '#1d4ed8'],
    ['utility.water/Test', 'TEST', '#475467'],
    ['utility.gone/Leak', 'NOTIFICATION', '#1d4ed8'],
  ])('%s: one compiled layout (strict MJML) shows its banner %s in %s', async (key, banner, accent) => {
    const email = await notification(key);
    expect(email.html).toContain('<!doctype html>');
    expect(email.html).toContain(escapeHtml(banner));
    expect(email.html).toContain(accent);
    expect(email.html).not.toMatch(/__NP_[A-Z]+__|#0a0b0c/i);
  });

  it("a Tamil subscriber's email has the banner and intro in Tamil, from the feed's own locales", async () => {
    const email = await notification('utility.power-outages/NewOutage', { language: 'ta' });
    expect(email.html).toContain('மின் தடை');
    expect(email.html).toContain('நீங்கள் பின்தொடரும் பகுதியில் மின் தடை.');
    expect(email.html).not.toContain('POWER OUTAGE');
    expect(email.html).not.toContain('An outage was reported');
  });

  it('escapes every value, and a value that looks like a placeholder stays text', async () => {
    const email = await notification('utility.power-outages/NewOutage', {
      title: 'Outage <img src=x onerror=alert(1)>',
      body: 'Areas: "Kandy" & <b>Peradeniya</b>\n__NP_LINK__',
      name: "O'Brien's <home>",
    });
    expect(email.html).toContain('Outage &lt;img src=x onerror=alert(1)&gt;');
    expect(email.html).toContain('<strong>Areas:</strong> &quot;Kandy&quot; &amp; &lt;b&gt;Peradeniya&lt;/b&gt;');
    expect(email.html).toContain('O&#39;Brien&#39;s &lt;home&gt;');
    expect(email.html).toContain('__NP_LINK__');
    expect(email.html).not.toContain('<img');
    expect(email.html).not.toContain('<b>');
  });

  it('a notification has the unsubscribe headers, and a text part with the body and the link', async () => {
    const email = await notification('utility.power-outages/NewOutage');
    const link = 'https://alerts.example.org/api/notification-subscriptions/pub1/unsubscribe?token=tok-pub1';
    expect(email.headers).toEqual({ 'List-Unsubscribe': `<${link}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
    expect(email.text).toBe(
      `Power outage: Kandy\n\nFeeder: F12\nAreas: Kandy\n\n--\nYou receive this email because of your subscription "Home".\nUnsubscribe: ${link}\n`,
    );
    expect(email.html).toContain(`href="${link}"`);
  });

  it("a notification's small print is in the subscriber's language (Tamil), the link the same; an unknown language is English", async () => {
    const email = await notification('utility.power-outages/NewOutage', { language: 'ta' });
    const link = 'https://alerts.example.org/api/notification-subscriptions/pub1/unsubscribe?token=tok-pub1';
    expect(email.text).toContain(`\n--\nஉங்கள் "Home" சந்தாவின் காரணமாக இந்த மின்னஞ்சல் உங்களுக்கு வருகிறது.\nசந்தாவிலிருந்து விலகவும்: ${link}\n`);
    expect(email.html).toContain('சந்தாவிலிருந்து விலகவும்');
    expect(email.html).not.toContain('You receive this email');
    expect((await notification('utility.power-outages/NewOutage', { language: 'xx' })).text).toContain(
      'You receive this email because of your subscription "Home".',
    );
  });

  it('a verification email links to verify, says it can be ignored, and has no unsubscribe header', async () => {
    const email = await composer.compose({
      kind: 'verification',
      template: 'verification',
      params: { name: 'Home & <away>', publicId: 'pub2', feedId: 'utility.water', token: 'vtok', ttlHours: 48 },
    });
    const link = 'https://alerts.example.org/api/notification-subscriptions/pub2/verify?token=vtok';
    expect(email.headers).toEqual({});
    expect(email.html).toContain(`href="${link}"`);
    expect(email.html).toContain('Home &amp; &lt;away&gt;');
    // The feed by the name its manifest gives it, never by its id.
    expect(email.html).toContain('Water supply');
    expect(email.text).toContain('Feed: Water supply');
    expect(email.html).toContain('valid for 48 hours');
    expect(email.text).toContain(link);
    expect(email.text).toContain('ignore this email');
  });

  const CONTROLS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/;
  const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/;

  it('user values never add lines to the text part, nor control characters to any part', async () => {
    const email = await notification('utility.power-outages/NewOutage', {
      title: 'Outage\u0000 in Kandy',
      body: 'Feeder: F12\r\nAreas: Kandy\u0007\u000b',
      name: 'hdr\r\nBcc: victim@evil.org\u0085To: x@evil.org',
    });
    const lines = email.text.split('\n');
    expect(lines.filter((line) => /^(Bcc|To):/.test(line))).toEqual([]);
    expect(lines).toContain('You receive this email because of your subscription "hdr Bcc: victim@evil.org To: x@evil.org".');
    // The body keeps its own lines.
    expect(lines.slice(0, 4)).toEqual(['Outage in Kandy', '', 'Feeder: F12', 'Areas: Kandy']);
    expect(email.text).not.toMatch(CONTROLS);
    expect(email.html).not.toMatch(CONTROLS);

    const verification = await composer.compose({
      kind: 'verification',
      template: 'verification',
      params: { name: 'Home\nFeed: Free money\r\nhttps://evil.example/verify', publicId: 'pub3', feedId: 'utility.power-outages', token: 't', ttlHours: 48 },
    });
    const verificationLines = verification.text.split('\n');
    expect(verificationLines.filter((line) => line.startsWith('Feed:'))).toEqual(['Feed: Power outages']);
    expect(verificationLines.filter((line) => line.startsWith('https://evil'))).toEqual([]);
    expect(verification.text).not.toMatch(CONTROLS);
  });

  it('removes right-to-left overrides and isolates from names in the subject, the text and the HTML', async () => {
    const name = 'Invoice\u202egpj.exe \u2066x\u2069 \u202a\u202b\u202c\u202d';
    const email = await notification('utility.power-outages/NewOutage', { name, title: 'Outage \u202eecnuonna' });
    expect(email.text).not.toMatch(BIDI_CONTROLS);
    expect(email.html).not.toMatch(BIDI_CONTROLS);
    expect(email.text).toContain('"Invoicegpj.exe x"');
    expect(notificationSubject('Outage \u202eecnuonna')).toBe('Outage ecnuonna');
    expect(verificationSubject(name)).toBe('Confirm your email alerts: Invoicegpj.exe x');
    // Arabic and Hebrew text itself, and the marks that order it, stay.
    expect(verificationSubject('\u0627\u0644\u0645\u0646\u0632\u0644 \u200f\u05d1\u05d9\u05ea')).toBe(
      'Confirm your email alerts: \u0627\u0644\u0645\u0646\u0632\u0644 \u200f\u05d1\u05d9\u05ea',
    );
  });

  it('subjects are one line', () => {
    expect(notificationSubject('Power outage:\r\nBcc: x@example.net')).toBe('Power outage: Bcc: x@example.net');
    expect(verificationSubject('Home\nTo: y@example.net')).toBe('Confirm your email alerts: Home To: y@example.net');
  });
});

describe('bodyHtml', () => {
  it.each([
    ['Feeder: F12', '<p style="margin:0 0 12px 0"><strong>Feeder:</strong> F12</p>'],
    ['one\ntwo', '<p style="margin:0 0 12px 0">one<br />two</p>'],
    ['para one\n\npara two', '<p style="margin:0 0 12px 0">para one</p><p style="margin:0 0 12px 0">para two</p>'],
    [
      'A sentence that runs long before its colon: is not a label',
      '<p style="margin:0 0 12px 0">A sentence that runs long before its colon: is not a label</p>',
    ],
    ['<x>: "y"', '<p style="margin:0 0 12px 0"><strong>&lt;x&gt;:</strong> &quot;y&quot;</p>'],
  ])('%j', (body, html) => {
    expect(bodyHtml(body)).toBe(html);
  });

  it("makes a link of this service's own URLs, and of no other", () => {
    const base = 'https://alerts.example.org';
    expect(bodyHtml('Still without power? Tell us: https://alerts.example.org/still-out#12.abc_-', base)).toBe(
      '<p style="margin:0 0 12px 0">Still without power? Tell us: <a href="https://alerts.example.org/still-out#12.abc_-" style="color:#1d4ed8;word-break:break-all">https://alerts.example.org/still-out#12.abc_-</a></p>',
    );
    // A feed's text naming another site (or this one's name inside another's) stays text.
    for (const text of ['See https://evil.example.net/still-out#1', 'See https://alerts.example.org.evil.net/x', 'See http://alerts.example.org/x']) {
      expect(bodyHtml(text, base)).not.toContain('<a ');
    }
    // A quote stays escaped inside the link: it adds no attribute.
    expect(bodyHtml('https://alerts.example.org/x"onmouseover="y', base)).toContain('href="https://alerts.example.org/x&quot;onmouseover=&quot;y"');
  });
});
