import type { Knex } from 'knex';
import type { PluginContext } from '#plugin-api';
import type { emailConfig } from './config.ts';
import { EmailComposer } from './email-composer.ts';
import { unsubscribeToken } from './link-tokens.ts';
import { OutboxWorker } from './outbox-worker.ts';
import { loadLinkKey } from './outbox-repository.ts';
import { isPostgresServer, listenForEnqueues, notifyOtherInstances } from './outbox-wakeups.ts';
import { createSmtpSender, type SmtpSender } from './smtp-sender.ts';

export type EmailContext = PluginContext<typeof emailConfig>;

/**
 * What the target, the worker and the routes of one plugin context share:
 * one SMTP pool, one composer (compiled templates), one outbox worker and
 * the link key. Made on first use by whichever core calls first, closed
 * with the target.
 */
export interface EmailRuntime {
  readonly context: EmailContext;
  readonly sender: SmtpSender;
  readonly worker: OutboxWorker;
  readonly composer: EmailComposer;
  /** The key unsubscribe links are signed with (read from the database once). */
  linkKey(): Promise<string>;
  /** Call inside a transaction that queued items: the worker here and on other instances wakes once it commits. */
  afterEnqueue(trx: Knex.Transaction): Promise<void>;
  /** This instance runs the outbox worker: wake-ups start drains, and other instances' enqueues are heard. */
  startWorking(): void;
  close(): Promise<void>;
}

const runtimes = new WeakMap<EmailContext, EmailRuntime>();

export function emailRuntime(context: EmailContext): EmailRuntime {
  let runtime = runtimes.get(context);
  if (!runtime) {
    runtime = createRuntime(context);
    runtimes.set(context, runtime);
  }
  return runtime;
}

function createRuntime(context: EmailContext): EmailRuntime {
  const provider = context.config.EmailProvider;
  const outbox = context.config.EmailOutbox;
  const log = context.log;
  const sender = createSmtpSender(provider);
  let key: string | undefined;
  let keyLoad: Promise<string> | undefined;
  const linkKey = async () => {
    if (key) return key;
    keyLoad ??= loadLinkKey(context.db).finally(() => (keyLoad = undefined));
    return (key = await keyLoad);
  };
  const composer = new EmailComposer({
    publicBaseUrl: context.coreConfig.PublicBaseUrl,
    unsubscribeToken: async (publicId) => unsubscribeToken(await linkKey(), publicId),
  });
  const worker = new OutboxWorker({
    db: context.db,
    log,
    sender,
    composer,
    ledger: context.ledger,
    batchSize: outbox.BatchSize,
    leaseSeconds: outbox.LeaseSeconds,
    intervalSeconds: outbox.IntervalSeconds,
    retry: { baseSeconds: outbox.RetryBaseSeconds, maxSeconds: outbox.RetryMaxSeconds, maxAttempts: outbox.MaxAttempts },
    now: context.now,
  });
  const postgres = isPostgresServer(context.db);
  let listener: { close(): Promise<void> } | undefined;

  return {
    context,
    sender,
    worker,
    composer,
    linkKey,
    async afterEnqueue(trx) {
      if (postgres) await notifyOtherInstances(trx);
      // Not awaited: the caller's commit (a create request) must not wait for any sending.
      trx.executionPromise.then(() => worker.wake(), () => undefined);
    },
    startWorking() {
      worker.enableWakeUps();
      if (!sender.configured) log.warn('EmailProvider__Host is not set: emails wait in the outbox until it is');
      if (postgres && !listener) listener = listenForEnqueues(context.db, () => worker.wake(), log);
    },
    async close() {
      await listener?.close();
      await worker.stop();
      await sender.close();
    },
  };
}
