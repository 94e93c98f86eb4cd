import { describe, expect, it } from 'vitest';
import type { GatewayClient, OutgoingText } from './gateway-client.ts';
import { DOWN_FOR_MS, failoverClient, gatewayDown, mayTryNext, tryOrder } from './gateway-failover.ts';
import type { GatewayResult } from './gateway-result.ts';

const answered = (status: number): GatewayResult => ({ kind: 'answered', status, ...(status === 201 ? { sid: 'SM1' } : {}) });

describe('a gateway down', () => {
  it.each<[string, GatewayResult, boolean, boolean]>([
    ['201: up', answered(201), false, false],
    ['429: up (the lane slows down)', answered(429), false, false],
    ['400: up (about the text)', answered(400), false, false],
    ['500: down, the next takes the text', answered(500), true, true],
    ['503: down, the next takes the text', answered(503), true, true],
    ['401: down (its credentials), the next takes the text', answered(401), true, true],
    ['connection refused: down, the next takes the text', { kind: 'network', code: 'ECONNREFUSED' }, true, true],
    ['a timeout: down, but the text waits (it may have been taken)', { kind: 'timeout', seconds: 15 }, true, false],
    ['aborted: not its fault', { kind: 'aborted' }, false, false],
  ])('%s', (_case, result, down, next) => {
    expect([gatewayDown(result), mayTryNext(result)]).toEqual([down, next]);
  });

  it.each<[string, Record<string, number>, number, string[]]>([
    ['none down: as configured', {}, 1000, ['Default', 'Backup', 'Third']],
    ['the first down: it comes last', { Default: 5000 }, 1000, ['Backup', 'Third', 'Default']],
    ['its time over: back in its place', { Default: 1000 }, 1000, ['Default', 'Backup', 'Third']],
    ['two down: the one back sooner first', { Default: 9000, Backup: 5000 }, 1000, ['Third', 'Backup', 'Default']],
  ])('tryOrder: %s', (_case, until, now, order) => {
    expect(tryOrder(['Default', 'Backup', 'Third'], new Map(Object.entries(until)), now)).toEqual(order);
  });
});

/** A gateway that answers from a list, and says whom it was asked for. */
function scripted(name: string, answers: GatewayResult[], asked: string[]): GatewayClient {
  return {
    send: async (_text: OutgoingText) => {
      asked.push(name);
      return answers.shift() ?? answered(201);
    },
    close: async () => undefined,
  };
}

describe('failoverClient', () => {
  const text = { to: '+94771234567', body: 'hi' };

  it('takes a text to the next gateway when the first surely did not, and leaves the first out for a minute', async () => {
    let now = 0;
    const asked: string[] = [];
    const downs: string[] = [];
    const client = failoverClient(
      [
        { name: 'Default', client: scripted('Default', [answered(503)], asked) },
        { name: 'Backup', client: scripted('Backup', [], asked) },
      ],
      {
        now: () => now,
        onDown: (name) => downs.push(name),
      },
    );
    expect(await client.send(text)).toMatchObject({ status: 201 });
    expect(asked).toEqual(['Default', 'Backup']);
    await client.send(text);
    expect(asked.slice(2)).toEqual(['Backup']);
    now = DOWN_FOR_MS;
    await client.send(text);
    expect(asked.slice(3)).toEqual(['Default']);
    expect(downs).toEqual(['Default']);
  });

  it('after a timeout sends no second copy now: the retry goes to the next', async () => {
    const asked: string[] = [];
    const client = failoverClient(
      [
        { name: 'Default', client: scripted('Default', [{ kind: 'timeout', seconds: 15 }], asked) },
        { name: 'Backup', client: scripted('Backup', [], asked) },
      ],
      {
        now: () => 0,
        onDown: () => undefined,
      },
    );
    expect(await client.send(text)).toEqual({ kind: 'timeout', seconds: 15 });
    expect(await client.send(text)).toMatchObject({ status: 201 });
    expect(asked).toEqual(['Default', 'Backup']);
  });

  it('with every gateway down tries each, and says what the last one said', async () => {
    const asked: string[] = [];
    const client = failoverClient(
      [
        { name: 'Default', client: scripted('Default', [answered(500)], asked) },
        { name: 'Backup', client: scripted('Backup', [answered(502)], asked) },
      ],
      {
        now: () => 0,
        onDown: () => undefined,
      },
    );
    expect(await client.send(text)).toEqual(answered(502));
    expect(asked).toEqual(['Default', 'Backup']);
  });
});
