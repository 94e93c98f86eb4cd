import { describe, expect, it } from 'vitest';
import { createLedgerAccess } from '../../core/ledger/index.ts';
import { preferredKind, provisionDatabase } from '../helpers/databases.ts';
import { pipelinePluginsDir } from '../helpers/pipeline-plugins.ts';
import { startTestApp } from '../helpers/test-app.ts';
import { servicesOf } from '../../core/app.ts';

describe('ledger access of transactional targets', () => {
  it('settles queued rows, and an operator requeue reopens a failed one until it is settled again', async () => {
    const database = await provisionDatabase(await preferredKind());
    const started = await startTestApp({ database, pluginsDir: pipelinePluginsDir(), workers: false });
    try {
      const { app } = started;
      const knex = servicesOf(app).database.knex;
      const created = await app.inject({
        method: 'POST',
        url: '/api/notification-subscriptions',
        payload: { displayName: 'mail', feedId: 'utility.power-outages', delivery: { provider: 'Email', destination: 'a@example.org' } },
      });
      await knex('notification_subscriptions').where({ public_id: created.json().publicId }).update({ is_active: true });
      await servicesOf(app).pipeline.processNotificationEvents(
        [
          {
            feedId: 'utility.power-outages',
            eventType: 'ManualAnnouncement',
            sourceKey: 'a-1',
            fields: {},
            sourcePayload: { title: 'T', message: 'M', areas: [], feeders: [] },
          },
        ],
        { awaitDelivery: true },
      );
      const row = () => knex('notification_delivery_ledger').first('id', 'status', 'last_error');
      const { id } = await row();
      expect((await row()).status).toBe('queued');
      const ledger = createLedgerAccess(knex);
      await ledger.settle([{ ledgerId: id, kind: 'failed', reason: 'dead after 8 attempts' }]);
      expect(await row()).toMatchObject({ status: 'failed', last_error: 'dead after 8 attempts' });
      await ledger.settle([{ ledgerId: id, kind: 'delivered' }]);
      expect((await row()).status).toBe('failed'); // only queued rows are settled
      await ledger.reopen([id]);
      expect(await row()).toMatchObject({ status: 'queued', last_error: null });
      // With an observer (metrics on), the settle also tells what it settled and the event's age at delivery.
      const observed: unknown[] = [];
      await createLedgerAccess(knex, (rows) => observed.push(...rows)).settle([{ ledgerId: id, kind: 'delivered' }]);
      expect((await row()).status).toBe('delivered');
      expect(observed).toEqual([{ provider: 'Email', status: 'delivered', latencySeconds: expect.any(Number) }]);
      await ledger.reopen([id]);
      expect((await row()).status).toBe('delivered'); // a delivered row is never reopened
    } finally {
      await started.close();
      await database.drop();
    }
  });
});
