import type { Knex } from 'knex';
import { askConfirmations, confirmationOfDelivery, openConfirmationsTo, settleConfirmations, type ConfirmedVia } from '../ledger/index.ts';
import type { ConfirmationPort } from '../plugin-api/core-ports.ts';
import type { SubscriberPreferences } from '../plugin-api/preferences.ts';
import { confirmLine, readConfirmToken } from './confirm-line.ts';
import { firstDueAt } from './escalation-policy.ts';
import { noticeFirstDueAt } from './notice-policy.ts';

/** A reply confirms the alerts a message asked its destination about in this many days. */
const REPLY_DAYS = 7;

export interface ConfirmationOptions {
  readonly db: Knex;
  readonly now: () => Date;
  /** The service's key of links (a confirm link's token is signed with it). */
  readonly key: string;
  readonly publicBaseUrl: string;
  /** Confirmation__ListAfterMinutes. */
  readonly listAfterMinutes: number;
}

/** A row about to be worked, as far as its confirmation goes. */
export interface AskingRow {
  readonly ledgerId: number;
  /** A notice's `confirmBy`: it is confirmed by then, reminded daily till then. */
  readonly event: { readonly confirmBy?: string };
  readonly subscription: { readonly preferences?: SubscriberPreferences | null };
}

/** What a confirm link's token came to. */
export type LinkVerdict = 'confirmed' | 'already' | 'bad';

/**
 * Confirmations as the lanes, the pages and the targets use them: which
 * rows ask for one (and the line that asks), and each way a person
 * answers (a link, a reply, a key) or an operator settles one.
 */
export function createConfirmations(options: ConfirmationOptions) {
  const { db, now } = options;
  const settle = async (ids: readonly number[], via: ConfirmedVia, by: string | null = null) => settleConfirmations(db, ids, via, by, now());

  const port: ConfirmationPort = {
    async confirmDelivery(ledgerId, via) {
      const id = await confirmationOfDelivery(db, ledgerId);
      return id !== null && (await settle([id], via)).length > 0;
    },
    async confirmByReply(provider, destination) {
      const since = new Date(now().getTime() - REPLY_DAYS * 24 * 3600 * 1000);
      return (await settle(await openConfirmationsTo(db, provider, destination, since), 'reply')).length;
    },
  };

  return {
    port,
    /**
     * For rows about to be worked: the open confirmation each asks for
     * (made now for an urgent alert or a notice to a subscriber who
     * confirms); only
     * rows of such subscribers are looked up.
     */
    async ask(rows: readonly AskingRow[]): Promise<Map<number, number>> {
      const asking = rows.filter((row) => row.subscription.preferences?.confirm === true);
      if (asking.length === 0) return new Map();
      const at = now();
      return askConfirmations(
        db,
        asking.map((row) => {
          const steps = row.subscription.preferences?.escalation;
          const until = row.event.confirmBy === undefined ? null : new Date(row.event.confirmBy);
          const due = until ? noticeFirstDueAt(at, until, steps, options.listAfterMinutes) : firstDueAt(steps, at, options.listAfterMinutes);
          return { ledgerId: row.ledgerId, firstDueAt: due, until };
        }),
        at,
      );
    },
    line: (confirmationId: number, language: string | undefined, byReply: boolean) =>
      confirmLine(options.key, options.publicBaseUrl, confirmationId, language, byReply),
    /** The /confirm page's button: the confirmation its link names. */
    async byLink(token: string): Promise<LinkVerdict> {
      const id = readConfirmToken(options.key, token);
      if (id === null) return 'bad';
      return (await settle([id], 'link')).length > 0 ? 'confirmed' : 'already';
    },
    /** An operator reached the person (the console): true when it was still open. */
    async reached(id: number, operator: string): Promise<boolean> {
      return (await settle([id], 'operator', operator)).length > 0;
    },
  };
}

export type Confirmations = ReturnType<typeof createConfirmations>;
