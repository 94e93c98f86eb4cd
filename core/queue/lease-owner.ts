import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';

/**
 * Who holds a lease: this instance's name, stable across its restarts,
 * and this run of it. Every lease token starts with both
 * (`name/run/random`), so a restarted instance knows the rows its earlier
 * run held when it was killed, and can take them back at once instead of
 * waiting for their leases to lapse.
 */
export class LeaseOwner {
  readonly name: string;
  readonly run: string;

  constructor(name: string, run: string = randomUUID()) {
    if (!/^[A-Za-z0-9._:-]{1,100}$/.test(name)) throw new Error(`instance name "${name}" must be 1–100 letters, digits, '.', '_', ':' or '-'`);
    this.name = name;
    this.run = run;
  }

  /** A new lease token of this run. */
  token(): string {
    return `${this.name}/${this.run}/${randomUUID()}`;
  }
}

/**
 * The instance's name: the one configured, or this host and port, which
 * two running instances cannot share (the second cannot listen). With port
 * 0 (any free port) no run shares a name with another.
 */
export function instanceName(configured: string | undefined, port: number): string {
  if (configured) return configured;
  return port === 0
    ? `run-${randomUUID()}`
    : `${
        hostname()
          .replace(/[^A-Za-z0-9._-]/g, '-')
          .slice(0, 90) || 'host'
      }:${port}`;
}
