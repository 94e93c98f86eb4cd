import { EventEmitter } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import type { Knex } from 'knex';

/**
 * Wake-ups of queue workers when new work commits. On a PostgreSQL server
 * the notice goes out with the transaction (pg_notify) to every instance,
 * this one included, through one LISTEN connection; embedded PGlite is one
 * process, so the notice is an in-process event after the commit. Either
 * way a lost notice costs at most a sweep period: the sweeps find the work.
 */
export interface Wakeups {
  /** Tells every instance's listeners of `channel` once `trx` commits (at once without a transaction). */
  notify(channel: string, trx?: Knex.Transaction): Promise<void>;
  /** Calls `listener` on each notice of `channel`; returns the unsubscribe. */
  listen(channel: string, listener: () => void): () => void;
  close(): Promise<void>;
}

const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;
const RECONNECT_MS = 5000;

function checkChannel(channel: string): string {
  if (!CHANNEL.test(channel)) throw new Error(`wake-up channel "${channel}" must be a lower-case SQL identifier`);
  return channel;
}

export function createWakeups(db: Knex, kind: 'postgres' | 'pglite', log: FastifyBaseLogger): Wakeups {
  return kind === 'postgres' ? postgresWakeups(db, log) : inProcessWakeups();
}

function inProcessWakeups(): Wakeups {
  const events = new EventEmitter();
  events.setMaxListeners(0);
  return {
    async notify(channel, trx) {
      checkChannel(channel);
      if (!trx) return void events.emit(channel);
      trx.executionPromise.then(
        () => events.emit(channel),
        () => undefined,
      );
    },
    listen(channel, listener) {
      events.on(checkChannel(channel), listener);
      return () => events.off(channel, listener);
    },
    async close() {
      events.removeAllListeners();
    },
  };
}

interface PgNotifyingClient {
  query(sql: string): Promise<unknown>;
  on(event: 'notification', listener: (message: { channel: string }) => void): void;
  on(event: 'error', listener: (err: Error) => void): void;
  removeAllListeners(): void;
}

/**
 * LISTENs on a connection of its own (outside the pool, which would hand it
 * to other queries); a lost connection is made again after a pause.
 */
function postgresWakeups(db: Knex, log: FastifyBaseLogger): Wakeups {
  const events = new EventEmitter();
  events.setMaxListeners(0);
  const channels = new Set<string>();
  let connection: PgNotifyingClient | undefined;
  let connecting: Promise<void> | undefined;
  let retry: NodeJS.Timeout | undefined;
  let closed = false;
  // One query at a time on the LISTEN connection (pg will refuse a query sent while another runs).
  let queries: Promise<unknown> = Promise.resolve();
  const listenOn = (client: PgNotifyingClient, channel: string) => (queries = queries.catch(() => undefined).then(() => client.query(`LISTEN ${channel}`)));

  const drop = async () => {
    const current = connection;
    connection = undefined;
    if (!current) return;
    current.removeAllListeners();
    // An error while it ends (the server going away meanwhile) is no news: without a listener it would be thrown.
    current.on('error', () => undefined);
    await db.client.destroyRawConnection(current).catch(() => undefined);
  };
  const schedule = () => {
    if (closed) return;
    retry = setTimeout(() => void connect(), RECONNECT_MS);
    retry.unref();
  };
  const connect = (): Promise<void> =>
    closed
      ? Promise.resolve()
      : (connecting ??= (async () => {
          try {
            const client = (await db.client.acquireRawConnection()) as PgNotifyingClient;
            connection = client;
            client.on('notification', (message) => events.emit(message.channel));
            client.on('error', (err) => {
              log.warn({ err }, 'wake-up LISTEN connection lost; reconnecting');
              void drop().then(schedule);
            });
            for (const channel of channels) await listenOn(client, channel);
            if (closed) await drop();
            else log.info({ channels: [...channels] }, 'listening for wake-ups of other instances');
          } catch (err) {
            log.warn({ err }, 'cannot LISTEN for wake-ups; relying on the periodic sweeps until it can');
            await drop();
            schedule();
          } finally {
            connecting = undefined;
          }
        })());

  return {
    async notify(channel, trx) {
      await (trx ?? db).raw('SELECT pg_notify(?, ?)', [checkChannel(channel), '']);
    },
    listen(channel, listener) {
      events.on(checkChannel(channel), listener);
      if (!channels.has(channel)) {
        channels.add(channel);
        // After a connect under way (it may have listed the channels before this one); LISTEN twice is harmless.
        void (async () => {
          await connecting;
          if (connection) {
            await listenOn(connection, channel).then(
              () => log.info({ channels: [channel] }, 'listening for wake-ups of other instances'),
              (err: unknown) => log.warn({ err, channel }, 'LISTEN failed'),
            );
          } else await connect();
        })();
      }
      return () => events.off(channel, listener);
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      await connecting;
      await drop();
      events.removeAllListeners();
    },
  };
}
