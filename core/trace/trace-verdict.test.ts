import { describe, expect, it } from 'vitest';
import { attemptHistory, traceVerdict, type TraceFacts } from './trace-verdict.ts';

const facts = (patch: Partial<TraceFacts>): TraceFacts => ({
  filter: { matched: true },
  rows: [],
  subscribedBeforeEvent: true,
  active: true,
  hold: null,
  ...patch,
});
const row = (status: string, skippedBecause: string | null = null, lastError: string | null = null) => ({ status, skippedBecause, lastError });

describe('traceVerdict: why an event did or did not reach a subscription', () => {
  it.each([
    ['a filter criterion it failed', facts({ filter: { matched: false, criterion: 'feeders' } }), false, 'feeders'],
    ['delivered', facts({ rows: [row('delivered')] }), true, null],
    ['on its way', facts({ rows: [row('retrying')] }), true, null],
    ['failed: it went, the attempts say why', facts({ rows: [row('failed')] }), true, null],
    ['held in quiet hours', facts({ rows: [row('held')] }), true, 'quietHours'],
    ['sent in a catch-up', facts({ rows: [row('merged')] }), true, 'quietHours'],
    ['superseded', facts({ rows: [row('superseded')] }), true, 'superseded'],
    ['over budget', facts({ rows: [row('skipped', 'budget', 'over budget: 5')] }), true, 'overBudget'],
    [
      'an escalation step not sent: confirmed before it',
      facts({ rows: [row('skipped', 'confirmed', 'not sent: the alert was confirmed before this step')] }),
      true,
      'confirmed',
    ],
    [
      'a reminder not sent: its planned outage was called off',
      facts({ rows: [row('skipped', 'withdrawn', 'not sent: nothing was left to confirm')] }),
      true,
      'withdrawn',
    ],
    ['the feed said no news', facts({ rows: [row('skipped', 'feed', 'moved 10 min')] }), true, 'feedPolicy'],
    ['a notice to confirm, to one who does not confirm', facts({ onlyForConfirming: true }), true, 'onlyForConfirming'],
    ['one who confirms, subscribed after the notice', facts({ onlyForConfirming: false, subscribedBeforeEvent: false }), true, 'subscribedLater'],
    ['subscribed after the event', facts({ subscribedBeforeEvent: false }), true, 'subscribedLater'],
    ['inactive', facts({ active: false }), true, 'inactive'],
    ['matched, nothing claimed yet', facts({}), true, 'notClaimed'],
    ['held for an operator', facts({ hold: 'held' }), true, 'heldByOperator'],
    ['discarded by an operator', facts({ hold: 'discarded' }), true, 'discarded'],
    ['a filter it fails says so, held or not', facts({ hold: 'held', filter: { matched: false, criterion: 'where' } }), false, 'where'],
  ] as const)('%s', (_, input, matched, criterion) => {
    const verdict = traceVerdict(input);
    expect([verdict.matched, verdict.criterion]).toEqual([matched, criterion]);
  });

  it("gives the ledger's reason for a skipped delivery", () => {
    expect(traceVerdict(facts({ rows: [row('skipped', 'feed', 'the estimate moved 10 min from the one last told, less than 30')] })).reason).toBe(
      'the estimate moved 10 min from the one last told, less than 30',
    );
  });

  it('a row that went counts before a superseded one of the same event', () => {
    expect(traceVerdict(facts({ rows: [row('superseded'), row('delivered')] })).criterion).toBeNull();
  });
});

describe('attemptHistory: every attempt of a delivery, with its time and outcome', () => {
  const at = (minute: number) => new Date(Date.UTC(2026, 10, 28, 10, minute));
  it('lists the retries, then the delivery', () => {
    expect(
      attemptHistory({ status: 'delivered', attempts: 3, deliveredAt: at(9) }, [
        { attempt: 1, status: 'retrying', error: 'push server 500', at: at(1) },
        { attempt: 2, status: 'retrying', error: 'push server unreachable: ECONNREFUSED', at: at(3) },
      ]),
    ).toEqual([
      { attempt: 1, at: at(1).toISOString(), outcome: 'retrying', error: 'push server 500' },
      { attempt: 2, at: at(3).toISOString(), outcome: 'retrying', error: 'push server unreachable: ECONNREFUSED' },
      { attempt: 3, at: at(9).toISOString(), outcome: 'delivered', error: null },
    ]);
  });

  it('ends with the failure that ended it, and says when one is on the wire', () => {
    expect(attemptHistory({ status: 'failed', attempts: 1, deliveredAt: null }, [{ attempt: 1, status: 'failed', error: 'receiver 410', at: at(2) }])).toEqual([
      { attempt: 1, at: at(2).toISOString(), outcome: 'failed', error: 'receiver 410' },
    ]);
    expect(attemptHistory({ status: 'delivering', attempts: 1, deliveredAt: null }, [])).toEqual([
      { attempt: 1, at: null, outcome: 'delivering', error: null },
    ]);
  });

  it('has none for a delivery never tried', () => {
    expect(attemptHistory({ status: 'superseded', attempts: 0, deliveredAt: null }, [])).toEqual([]);
  });
});
