import { describe, expect, it } from 'vitest';
import { createLogOutput } from './log-output.ts';

describe("the demo's log output", () => {
  it('makes JSON lines readable, joins split chunks and passes other lines as they are', () => {
    const written: string[] = [];
    const output = createLogOutput((text) => written.push(text), false);
    const line = JSON.stringify({ level: 40, time: Date.UTC(2026, 10, 22, 10, 0, 0), pid: 7, hostname: 'h', worker: 'x', msg: 'feed poll failed' });
    output.serviceChunk(line.slice(0, 20));
    expect(written).toEqual([]);
    output.serviceChunk(`${line.slice(20)}\nStart-up failed: no\n`);
    expect(written).toHaveLength(2);
    expect(written[0]).toMatch(/^\[\d\d:\d\d:\d\d\] WARN: feed poll failed \{"worker":"x"\}\n$/);
    expect(written[1]).toBe('Start-up failed: no\n');
  });

  it('leaves out the routine lines (a request answered below 400, a queue batch that all went out), unless asked for all', () => {
    const lines = [
      { level: 30, time: 1, method: 'GET', url: '/api/locales', statusCode: 200, msg: 'GET /api/locales 200 1 ms' },
      { level: 30, time: 1, method: 'POST', url: '/api/notification-subscriptions', statusCode: 400, msg: 'POST … 400' },
      { level: 30, time: 1, msg: 'queue batch settled' },
      { level: 40, time: 1, msg: 'queue batch settled; some items not delivered' },
      { level: 30, time: 1, msg: 'feed changed' },
    ].map((entry) => JSON.stringify(entry));
    const shown = (all: boolean) => {
      const written: string[] = [];
      createLogOutput((text) => written.push(text), false, { all }).serviceChunk(`${lines.join('\n')}\n`);
      return written.length;
    };
    expect(shown(false)).toBe(3);
    expect(shown(true)).toBe(5);
  });

  it("names the demo's own servers", () => {
    const written: string[] = [];
    createLogOutput((text) => written.push(text), false).note('push inbox', 'utility-power-outages: Power outage: Kandy');
    expect(written[0]).toMatch(/INFO \(push inbox\): utility-power-outages: Power outage: Kandy\n$/);
  });

  it('holds everything until released, then writes it in order', () => {
    const written: string[] = [];
    const output = createLogOutput((text) => written.push(text), false);
    output.hold();
    output.serviceChunk('one\n');
    output.note('mail inbox', 'two');
    expect(written).toEqual([]);
    output.release();
    expect(written).toHaveLength(2);
    output.serviceChunk('three\n');
    expect(written.at(-1)).toBe('three\n');
  });
});
