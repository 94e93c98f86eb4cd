import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runDemo, type RunningDemo } from '../../demo/demo-runner.ts';
import { tmpRoot } from '../helpers/databases.ts';
import { loadPlatform } from '../../core/boot.ts';

// The whole demo as a person runs it: `npm run demo`, the first outage and its
// restoration in the system topic through ntfy's poll API, then Ctrl-C (SIGINT to
// the process group). Its temporary folder is made inside a TMPDIR of the test's own,
// so "leaves nothing behind" is that folder holding no demo folder afterwards (npm itself
// may leave its compile cache there).
mkdirSync(tmpRoot(), { recursive: true });
const tmpDir = mkdtempSync(path.join(tmpRoot(), 'demo-tmpdir-'));
let demo: RunningDemo | undefined;

afterAll(async () => {
  // SIGTERM, not SIGKILL: the demo stops the service it started (in a process group of its own), which a SIGKILL would leave running.
  await demo?.stop('SIGTERM');
  rmSync(tmpDir, { recursive: true, force: true });
});

const demoFolders = () => readdirSync(tmpDir).filter((name) => name.startsWith('notification-demo-'));
const refused = (url: string) =>
  fetch(url, { signal: AbortSignal.timeout(2000) }).then(
    () => false,
    () => true,
  );

describe('npm run demo', () => {
  it('delivers the first outage and its restoration to utility-power-outages, and Ctrl-C leaves nothing behind', { timeout: 300_000 }, async () => {
    demo = await runDemo({ via: 'npm', env: { ...process.env, TMPDIR: tmpDir } });
    const { urls } = demo;
    expect(urls.subscribePage).toBe(`${urls.service}/subscribe`);
    expect(demoFolders()).toHaveLength(1);
    expect((await fetch(`${urls.service}/health/ready`)).status).toBe(200);

    const { outage, restoration } = await demo.outageAndRestoration(150_000);
    expect(outage).toMatchObject({ event: 'message', topic: 'utility-power-outages', title: 'Power outage: Kandy, Peradeniya' });
    expect(restoration).toMatchObject({ title: 'Power restored: Kandy, Peradeniya', sequence_id: outage.sequence_id });
    expect(restoration.time).toBeGreaterThanOrEqual(outage.time);

    // The inbox page and the mail page are served, with a strict policy.
    const page = await fetch(urls.pushInbox);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect((await fetch(urls.mailInbox)).status).toBe(200);

    // The operator side can be tried too: the admin token it printed opens the admin routes.
    const token = /^Admin token \(12 h\): (\S+)$/m.exec(demo.output())?.[1];
    expect(token).toBeDefined();
    const feeds = await fetch(`${urls.service}/api/admin/feeds`, { headers: { authorization: `Bearer ${token}` } });
    expect(feeds.status).toBe(200);
    // Every installed feed, the shipped ones and any dropped in.
    const installed = (await loadPlatform()).registry.getAll().map((feed) => feed.id);
    expect(((await feeds.json()) as Array<{ id: string }>).map((feed) => feed.id)).toEqual(installed);
    expect(installed).toEqual(expect.arrayContaining(['utility.power-outages', 'utility.scheduled-outages']));
    // And the console: the link it printed carries that token in its fragment, which the page exchanges for a session.
    expect(demo.output()).toContain(`Operator console (this link signs you in): ${urls.service}/console#token=${token}`);
    expect((await fetch(`${urls.service}/console`)).status).toBe(200);

    const ended = await demo.stop('SIGINT');
    // npm's shell (dash) dies of the SIGINT the whole group gets, so npm reports the interrupt as a
    // shell does (signal SIGINT, exit status 130); the demo's own clean end is its last line.
    expect([JSON.stringify({ code: 0, signal: null }), JSON.stringify({ code: null, signal: 'SIGINT' })]).toContain(JSON.stringify(ended));
    const output = demo.output();
    expect(output).toMatch(/shutting down/);
    expect(output).not.toMatch(/shutdown took too long|shutdown failed|the service ended with/);
    expect(output.trimEnd().split('\n').at(-1)).toMatch(/\(demo\): stopped; removed .*notification-demo-/);
    expect(demoFolders()).toEqual([]);
    for (const url of [urls.service, urls.pushInbox, urls.mailInbox]) expect(await refused(url)).toBe(true);
  });
});
