/**
 * Child process of the email crash test: starts the service (workers on)
 * on CRASH_DATABASE_URL with the plugins in CRASH_PLUGINS_DIR and the SMTP
 * relay at CRASH_SMTP_PORT, creates one email subscription (its
 * verification email is sent by the wake-up at once; the parent has set
 * the relay to hang after DATA), prints CREATED, and waits to be killed.
 */
import { buildApp } from '../../core/app.ts';
import { SMTP_API_KEY, SMTP_USER } from './smtp-double.ts';

const app = await buildApp({
  env: {
    ConnectionStrings__DefaultConnection: process.env.CRASH_DATABASE_URL,
    Logging__Level: 'silent',
    EmailProvider__Host: '127.0.0.1',
    EmailProvider__Port: process.env.CRASH_SMTP_PORT,
    EmailProvider__Username: SMTP_USER,
    EmailProvider__ApiKey: SMTP_API_KEY,
    EmailOutbox__LeaseSeconds: '2',
    EmailOutbox__IntervalSeconds: '3600',
  },
  pluginsDir: process.env.CRASH_PLUGINS_DIR,
});
await app.ready();
const response = await app.inject({
  method: 'POST',
  url: '/api/notification-subscriptions',
  payload: { displayName: 'crash', feedId: 'utility.power-outages', delivery: { provider: 'Email', destination: 'crash-child@example.org' } },
});
process.stdout.write(`CREATED ${response.statusCode}\n`);
setInterval(() => undefined, 1000);
