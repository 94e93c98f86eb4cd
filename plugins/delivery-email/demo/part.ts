import { randomBytes } from 'node:crypto';
import type { StartDemoPart } from '../../../demo/demo-part.ts';
import { startMailInbox } from '../../../demo/mail-inbox/mail-inbox.ts';

/** The demo's mail inbox: an SMTP server taking any login, with a page of every email as a mail client shows it. */
export const startDemoPart: StartDemoPart = async ({ log }) => {
  const inbox = await startMailInbox({ log });
  return {
    name: 'Mail inbox',
    url: inbox.baseUrl,
    env: {
      EmailProvider__Host: '127.0.0.1',
      EmailProvider__Port: String(inbox.smtpPort),
      EmailProvider__Secure: 'false',
      EmailProvider__Username: 'demo',
      // The inbox takes any password; this one only has to be one the log redaction cannot mistake for a word.
      EmailProvider__ApiKey: `demo-smtp-${randomBytes(12).toString('base64url')}`,
      EmailProvider__From: 'Outage alerts <alerts@demo.localhost>',
      EmailOutbox__RetryBaseSeconds: '5',
    },
    close: () => inbox.close(),
  };
};
