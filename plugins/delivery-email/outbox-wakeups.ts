import type { FastifyBaseLogger } from 'fastify';
import type { Knex } from 'knex';

/** The channel an enqueue notifies (inside its transaction: delivered only when it commits). */
export const OUTBOX_CHANNEL = 'delivery_email_outbox';

const RECONNECT_MS = 5000;

/** Only a PostgreSQL server has other instances to tell; embedded PGlite is one process. */
export function isPostgresServer(db: Knex): boolean {
  return db.client.config.client === 'pg';
}

export async function notifyOtherInstances(trx: Knex.Transaction): Promise<void> {
  await trx.raw('SELECT pg_notify(?, ?)', [OUTBOX_CHANNEL, '']);
}

interface PgNotifyingClient {
  query(sql: string): Promise<unknown>;
  on(event: 'notification', listener: () => void): void;
  on(event: 'error', listener: (err: Error) => void): void;
  removeAllListeners(): void;
}

/**
 * LISTENs on a connection of its own (outside the pool, which would hand
 * it to other queries) and wakes the worker whenever any instance commits
 * new outbox items. A lost connection is made again after a pause; the
 * periodic sweep covers the gap.
 */
export function listenForEnqueues(db: Knex, onNotify: () => void, log: FastifyBaseLogger): { close(): Promise<void> } {
  let connection: PgNotifyingClient | undefined;
  let retry: NodeJS.Timeout | undefined;
  let closed = false;

  const drop = async () => {
    const current = connection;
    connection = undefined;
    if (!current) return;
    current.removeAllListeners();
    await db.client.destroyRawConnection(current).catch(() => undefined);
  };
  const connect = async () => {
    try {
      const client = (await db.client.acquireRawConnection()) as PgNotifyingClient;
      connection = client;
      client.on('notification', onNotify);
      client.on('error', (err) => {
        log.warn({ err }, 'email outbox LISTEN connection lost; reconnecting');
        void drop().then(schedule);
      });
      await client.query(`LISTEN ${OUTBOX_CHANNEL}`);
      if (closed) await drop();
      else log.info('email outbox: listening for enqueues of other instances');
    } catch (err) {
      log.warn({ err }, 'email outbox cannot LISTEN; relying on the periodic sweep until it can');
      await drop();
      schedule();
    }
  };
  const schedule = () => {
    if (closed) return;
    retry = setTimeout(() => void connect(), RECONNECT_MS);
    retry.unref();
  };

  void connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      await drop();
    },
  };
}
