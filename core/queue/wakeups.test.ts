import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { provisionDatabase, postgresReachable } from '../../test/helpers/databases.ts';
import { createDatabase } from '../db/database.ts';
import { createWakeups } from './wakeups.ts';

const log = pino({ level: 'silent' });

/** Counts the LISTEN connection's raw connections: opened (asked for) and closed. */
function countRawConnections(knex: ReturnType<typeof createDatabase>['knex']) {
  const counts = { asked: 0, closed: 0 };
  const client = knex.client as { acquireRawConnection(): Promise<unknown>; destroyRawConnection(c: unknown): Promise<void> };
  const acquire = client.acquireRawConnection.bind(client);
  const destroy = client.destroyRawConnection.bind(client);
  client.acquireRawConnection = () => {
    counts.asked += 1;
    return acquire();
  };
  client.destroyRawConnection = (connection) => {
    counts.closed += 1;
    return destroy(connection);
  };
  return counts;
}

describe.runIf(await postgresReachable())('wake-ups on PostgreSQL', () => {
  it('tells a listener of a notice sent on its channel', async () => {
    const provisioned = await provisionDatabase('postgres');
    const database = createDatabase({ connectionString: provisioned.connectionString });
    const wakeups = createWakeups(database.knex, 'postgres', log);
    try {
      const heard = new Promise<void>((resolve) => wakeups.listen('test_channel', resolve));
      // The LISTEN may not be in place yet: send until it is heard.
      const sending = setInterval(() => void wakeups.notify('test_channel').catch(() => undefined), 50);
      await heard.finally(() => clearInterval(sending));
    } finally {
      await wakeups.close();
      await database.knex.destroy();
      await provisioned.drop();
    }
  });

  it('leaves no LISTEN connection open or opening once close() resolves, even when closed right after listen()', async () => {
    const provisioned = await provisionDatabase('postgres');
    const database = createDatabase({ connectionString: provisioned.connectionString });
    const counts = countRawConnections(database.knex);
    const wakeups = createWakeups(database.knex, 'postgres', log);
    try {
      wakeups.listen('test_channel', () => undefined);
      await wakeups.close();
      // A connection asked for after close (or not closed by it) would be open while the database is dropped: an uncaught 57P01.
      expect(counts.asked).toBe(counts.closed);
    } finally {
      await database.knex.destroy();
      await provisioned.drop();
    }
  });
});
