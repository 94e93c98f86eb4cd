import { describe, expect, it } from 'vitest';
import { holderState, parseLockHolder, type LockHolder, type LockProbe } from './lock-holder.ts';

const holder = (over: Partial<LockHolder> = {}): LockHolder => ({
  pid: 4242,
  host: 'box',
  bootId: 'boot-1',
  startTime: '1000',
  command: 'core/main.ts',
  since: '2026-11-23T00:00:00.000Z',
  token: 't-1',
  ...over,
});

/** This process is 7 on host "box", boot "boot-1"; process 4242 runs since tick 1000 unless a case says otherwise. */
const probe = (over: Partial<LockProbe> & { alive?: number[]; startTimes?: Record<number, string>; heldTokens?: string[] } = {}): LockProbe => ({
  pid: 7,
  host: 'box',
  bootId: 'boot-1',
  isAlive: (pid) => (over.alive ?? [4242]).includes(pid),
  startTimeOf: (pid) => (over.startTimes ?? { 4242: '1000' })[pid],
  heldHere: (token) => (over.heldTokens ?? []).includes(token),
  ...over,
});

describe('who holds an embedded data folder', () => {
  it.each<[string, LockHolder | undefined, LockProbe, string]>([
    ['a running process of this machine', holder(), probe(), 'live'],
    ['a process that has exited', holder(), probe({ alive: [] }), 'stale'],
    ['a pid now used by another process (other start time)', holder(), probe({ startTimes: { 4242: '5000' } }), 'stale'],
    ['a running process whose start time cannot be read (not Linux)', holder({ startTime: undefined }), probe({ startTimes: {} }), 'live'],
    ['a lock written before the machine restarted', holder(), probe({ bootId: 'boot-2' }), 'stale'],
    ['a lock without boot id (written elsewhere than Linux)', holder({ bootId: undefined }), probe(), 'live'],
    ['another host, whose processes cannot be checked', holder({ host: 'other' }), probe({ alive: [] }), 'other-host'],
    ['this process, holding it now', holder({ pid: 7 }), probe({ heldTokens: ['t-1'] }), 'live'],
    ['this process, left over from an instance it no longer holds', holder({ pid: 7 }), probe({ heldTokens: ['t-2'] }), 'stale'],
    ['an unreadable lock file', undefined, probe(), 'stale'],
  ])('%s → %s', (_, lock, facts, expected) => {
    expect(holderState(lock, facts)).toBe(expected);
  });
});

describe('reading a lock file', () => {
  it('reads what lockDataFolder writes', () => {
    expect(parseLockHolder(`${JSON.stringify(holder())}\n`)).toEqual(holder());
  });

  it.each([
    ['empty', ''],
    ['torn JSON', '{"pid": 42, "ho'],
    ['no pid', JSON.stringify({ host: 'box', token: 't' })],
    ['a pid that is no integer', JSON.stringify({ pid: '42', host: 'box', token: 't' })],
    ['no token', JSON.stringify({ pid: 42, host: 'box' })],
    ['not an object', '42'],
  ])('takes %s as no holder', (_, text) => {
    expect(parseLockHolder(text)).toBeUndefined();
  });
});
