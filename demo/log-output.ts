import { prettyFactory } from 'pino-pretty';

/**
 * The demo's terminal output: the service's JSON log lines made readable
 * with pino-pretty (one line each, colours on a terminal), and the demo's
 * own servers' news in the same form. A line that is not JSON passes as is.
 */
export interface LogOutput {
  /** A chunk of the service's output; complete lines are written, the rest waits for more. */
  serviceChunk(chunk: Buffer | string): void;
  /** A line from one of the demo's own servers. */
  note(component: string, message: string): void;
  /** Holds every line until `release` (so nothing comes before the demo's URL lines). */
  hold(): void;
  release(): void;
}

/**
 * The service's routine lines that would bury what happens: a request answered
 * below 400 (the pages ask for their catalogs, the console refreshes) and a
 * queue batch that all went out. Pure.
 */
export function isRoutine(entry: Record<string, unknown>): boolean {
  if (entry.level !== 30) return false;
  if (entry.msg === 'queue batch settled') return true;
  return typeof entry.method === 'string' && typeof entry.statusCode === 'number' && entry.statusCode < 400;
}

/** `all`: every line of the service, the routine ones too (DEMO_LOG=all). */
export function createLogOutput(write: (text: string) => void, colorize: boolean, { all = false } = {}): LogOutput {
  const pretty = prettyFactory({ colorize, singleLine: true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' });
  let partial = '';
  let held: string[] | null = null;
  const out = (text: string) => (held === null ? write(text) : held.push(text));
  const routine = (text: string) => {
    if (all || !text.startsWith('{')) return false;
    try {
      return isRoutine(JSON.parse(text) as Record<string, unknown>);
    } catch {
      return false;
    }
  };
  const line = (text: string) => {
    if (text.trim() === '' || routine(text)) return;
    const formatted = text.startsWith('{') ? pretty(text) : `${text}\n`;
    out(formatted.endsWith('\n') ? formatted : `${formatted}\n`);
  };
  return {
    serviceChunk(chunk) {
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop() ?? '';
      for (const text of lines) line(text);
    },
    note(component, message) {
      line(JSON.stringify({ level: 30, time: Date.now(), name: component, msg: message }));
    },
    hold() {
      held ??= [];
    },
    release() {
      const lines = held ?? [];
      held = null;
      for (const text of lines) write(text);
    },
  };
}
