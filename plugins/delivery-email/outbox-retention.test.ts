import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// Test-only imports from outside the plugin: the shared database helpers and the SMTP relay double.
import { preferredKind, provisionDatabase, type ProvisionedDatabase } from '../../test/helpers/databases.ts';
import type { TestApp } from '../../test/helpers/test-app.ts';
import { startSmtpDouble, type SmtpDouble } from '../../test/doubles/smtp-double.ts';
import { createEmailSubscription, emailPluginsDir, startEmailApp } from '../../test/doubles/smtp-test-app.ts';
import { servicesOf } from '../../test/helpers/test-app.ts';

describe('email outbox retention', () => {
  let database: ProvisionedDatabase;
  let smtp: SmtpDouble;
  let harness: TestApp;

  beforeAll(async () => {
    database = await provisionDatabase(await preferredKind());
    smtp = await startSmtpDouble();
    harness = await startEmailApp({ database, pluginsDir: emailPluginsDir(), smtp, env: { Retention__Days: '30' } });
    await servicesOf(harness.app).workers.runNow('delivery-email.retention');
  });
  afterAll(async () => {
    await harness?.close();
    await smtp?.close();
    await database?.drop();
  });

  it('forgets sent and dead items past Retention__Days, never one still to send', async () => {
    const knex = servicesOf(harness.app).database.knex;
    await smtp.down();
    const subscription = await createEmailSubscription(harness.app, { displayName: 'old', destination: 'old@example.org' });
    const { id } = await knex('notification_subscriptions').where({ public_id: subscription.publicId }).first('id');
    // Ages on the service's clock, which retention measures by (not the database's: a run under faketime has them differ).
    const now = servicesOf(harness.app).now().toISOString();
    const item = (state: string, days: number) => ({
      kind: 'notification',
      subscription_id: id,
      recipient: 'old@example.org',
      subject: 's',
      template: 'generic',
      params: '{}',
      state,
      updated_at: knex.raw(`?::timestamptz - interval '${days} days'`, [now]),
      // Not due yet, so the outbox worker leaves it alone: its subscription awaits
      // verification, and a claimed notification of an inactive subscription is dropped.
      due_at: knex.raw(`now() + interval '1 day'`),
    });
    const ids = (
      await knex('email_outbox')
        .insert([item('sent', 40), item('dead', 40), item('sent', 2), item('pending', 40)])
        .returning('id')
    ).map((row: { id: number }) => Number(row.id));
    await servicesOf(harness.app).workers.runNow('delivery-email.retention', { force: true });
    const left = (await knex('email_outbox').where({ recipient: 'old@example.org', kind: 'notification' }).orderBy('id').pluck('id')).map(Number);
    // The old item still to send stays, whatever its age.
    expect(left).toEqual([ids[2], ids[3]]);
    await smtp.up();
  });
});
