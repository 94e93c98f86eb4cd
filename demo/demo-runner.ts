import { spawn } from 'node:child_process';
import { projectRoot } from '../core/paths.ts';

/**
 * Runs the demo as a person does (`npm run demo`, or `node demo/main.ts`)
 * in a process group of its own, for the demo's test and the screenshot
 * script: reads the URL lines, reads the push inbox through ntfy's poll API,
 * and stops it the way Ctrl-C does (SIGINT to the whole group).
 */
export interface DemoUrls {
  service: string;
  subscribePage: string;
  pushInbox: string;
  mailInbox: string;
}

/** One line of ntfy's poll API. */
export interface PolledMessage {
  id: string;
  time: number;
  event: string;
  topic: string;
  title?: string;
  message?: string;
  sequence_id?: string;
}

export interface RunningDemo {
  readonly urls: DemoUrls;
  /** Everything the demo printed so far (stdout and stderr). */
  output(): string;
  poll(topic: string): Promise<PolledMessage[]>;
  /** The first power outage and the restoration that replaces it (same sequence_id), once both arrived. */
  outageAndRestoration(timeoutMs: number): Promise<{ outage: PolledMessage; restoration: PolledMessage }>;
  /** Sends `signal` to the demo's process group and resolves with how the command ended. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const LINES: Record<keyof DemoUrls, string> = { service: 'Service', subscribePage: 'Subscribe page', pushInbox: 'Push inbox', mailInbox: 'Mail inbox' };

export async function runDemo(options: { via: 'npm' | 'node'; env?: NodeJS.ProcessEnv; startTimeoutMs?: number }): Promise<RunningDemo> {
  const [command, args] = options.via === 'npm' ? ['npm', ['run', '-s', 'demo']] : [process.execPath, ['demo/main.ts']];
  const child = spawn(command, args, { cwd: projectRoot, env: options.env ?? process.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout.on('data', (chunk: Buffer) => void (text += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => void (text += chunk.toString()));
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let running = true;
  void ended.then(() => (running = false));

  const found = (): DemoUrls | undefined => {
    const urls: Partial<DemoUrls> = {};
    for (const [key, label] of Object.entries(LINES) as [keyof DemoUrls, string][]) {
      const match = new RegExp(`^${label}: (http://127\\.0\\.0\\.1:\\d+\\S*)$`, 'm').exec(text);
      if (match) urls[key] = match[1];
    }
    return Object.keys(urls).length === 4 ? (urls as DemoUrls) : undefined;
  };
  const stop: RunningDemo['stop'] = async (signal = 'SIGINT') => {
    if (running) process.kill(-child.pid!, signal);
    // The demo stops its service (in a process group of its own) when it is stopped; one that does not stop in time is killed.
    const force = setTimeout(() => running && process.kill(-child.pid!, 'SIGKILL'), 30_000);
    const result = await ended;
    clearTimeout(force);
    return result;
  };

  const deadline = Date.now() + (options.startTimeoutMs ?? 180_000);
  let urls = found();
  while (urls === undefined) {
    if (!running || Date.now() > deadline) {
      await stop('SIGTERM');
      throw new Error(`the demo printed no URLs${running ? ' in time' : ' before it ended'}; its output:\n${text}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    urls = found();
  }

  const poll = async (topic: string): Promise<PolledMessage[]> => {
    const response = await fetch(`${urls.pushInbox}/${topic}/json?poll=1`);
    if (response.status !== 200) throw new Error(`poll of ${topic} answered ${response.status}`);
    return (await response.text())
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as PolledMessage);
  };

  return {
    urls,
    output: () => text,
    poll,
    async outageAndRestoration(timeoutMs) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const messages = await poll('utility-power-outages');
        const outage = messages.find((m) => m.title?.startsWith('Power outage'));
        const restoration = messages.find((m) => m.title?.startsWith('Power restored') && outage !== undefined && m.sequence_id === outage.sequence_id);
        if (outage && restoration) return { outage, restoration };
        if (!running || Date.now() > until) {
          throw new Error(`no outage and restoration in utility-power-outages (${JSON.stringify(messages)}); the demo's output:\n${text}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    },
    stop,
  };
}
