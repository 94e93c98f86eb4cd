import { spawnSync } from 'node:child_process';
import { projectRoot } from '../core/paths.ts';

/**
 * `npm run test:any-hour`: the tests that touch clocks, dates and hours,
 * run with the system clock faked (Debian's `faketime`, which preloads
 * libfaketime into every process of the run: vitest, its workers and the
 * service processes they spawn, on one shared timeline) to instants that
 * have broken tests before or could: the minute before the default digest
 * hour, the evening hour a test once met its own quiet hour at, and the
 * last minute of a UTC day (the run crosses midnight). PostgreSQL keeps
 * the real clock, as a database server on another host would. CI runs it
 * after `npm test`.
 */
const INSTANTS = ['2026-11-26 05:59:30', '2026-11-25 21:30:00', '2026-11-26 23:59:30'];
const FILES = [
  'test/e2e/alert-feeds.test.ts',
  'test/e2e/scheduled-outages.test.ts',
  'test/e2e/calendar-feeds.test.ts',
  'test/e2e/feed-contract.test.ts',
  'test/e2e/outage-lifecycle.test.ts',
  'test/e2e/power-outages.test.ts',
  'test/e2e/power-outages-kill.test.ts',
  'test/pipeline',
  'test/foundation/worker-scheduler.test.ts',
  'test/operations/feed-health.test.ts',
  'test/hardening/feed-answers.test.ts',
  'test/subscriptions/subscription-limits.test.ts',
  'plugins/delivery-email',
  'plugins/utility-scheduled-outages',
];

const probe = spawnSync('faketime', ['--version'], { stdio: 'ignore' });
if (probe.error) {
  process.stderr.write('faketime is not installed (Debian: apt-get install faketime): the tests cannot be run at other hours here.\n');
  process.exit(1);
}
let failed = 0;
for (const instant of INSTANTS) {
  process.stdout.write(`\n== the clock at ${instant} UTC ==\n`);
  const run = spawnSync('faketime', [instant, 'npx', 'vitest', 'run', ...FILES], {
    cwd: projectRoot,
    stdio: 'inherit',
    env: { ...process.env, TZ: 'UTC', FAKETIME_DONT_RESET: '1' },
  });
  if (run.status !== 0) failed += 1;
}
process.stdout.write(failed === 0 ? `\nall ${INSTANTS.length} hours passed\n` : `\n${failed} of ${INSTANTS.length} hours failed\n`);
process.exit(failed === 0 ? 0 : 1);
