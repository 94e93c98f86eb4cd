import { describe, expect, it } from 'vitest';
import { createLogger, wantsReadableLogs } from './logger.ts';

const SECRET = 'tk_publish_token_0123456789';

function capture(readable: boolean, loadFormatter?: () => ((line: string) => string) | null) {
  const lines: string[] = [];
  const log = createLogger({ level: 'info', secrets: [SECRET], readable, loadFormatter, stream: { write: (line: string) => void lines.push(line) } });
  return { log, lines };
}

describe('readable logs or JSON', () => {
  it.each([
    { nodeEnv: 'development', terminal: true, readable: true },
    { nodeEnv: 'test', terminal: true, readable: true },
    { nodeEnv: 'production', terminal: true, readable: false },
    { nodeEnv: 'development', terminal: false, readable: false },
    { nodeEnv: 'production', terminal: false, readable: false },
  ])('NODE_ENV=$nodeEnv, stdout a terminal: $terminal → readable: $readable', ({ nodeEnv, terminal, readable }) => {
    expect(wantsReadableLogs(nodeEnv, terminal)).toBe(readable);
  });

  it('readable: one line per entry with the time, level, message and fields, secrets still blanked', () => {
    const { log, lines } = capture(true);
    log.warn({ feed: 'utility.power-outages', token: 'x', note: `published with ${SECRET}` }, 'feed is stale');
    expect(lines).toHaveLength(1);
    const line = lines[0].replace(/\u001b\[[0-9;]*m/g, '');
    expect(line.endsWith('\n')).toBe(true);
    expect(line.trimEnd().split('\n')).toHaveLength(1);
    expect(line).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] WARN: feed is stale /);
    expect(line).toContain('"feed":"utility.power-outages"');
    expect(line).not.toContain(SECRET);
    expect(line).toContain('[REDACTED]');
    expect(() => JSON.parse(line)).toThrow();
  });

  it('JSON lines otherwise, and when pino-pretty is not installed (a production host has no devDependencies)', () => {
    for (const { log, lines } of [capture(false), capture(true, () => null)]) {
      log.info({ feed: 'f' }, 'polled');
      expect(JSON.parse(lines[0])).toMatchObject({ level: 30, feed: 'f', msg: 'polled' });
    }
  });
});
