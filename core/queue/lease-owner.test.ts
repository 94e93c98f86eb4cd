import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { LeaseOwner, instanceName } from './lease-owner.ts';

describe('LeaseOwner', () => {
  it("starts every token with the instance's name and this run, and draws a new one each time", () => {
    const owner = new LeaseOwner('api-1', 'run-a');
    const [a, b] = [owner.token(), owner.token()];
    expect(a.startsWith('api-1/run-a/')).toBe(true);
    expect(b.startsWith('api-1/run-a/')).toBe(true);
    expect(a).not.toBe(b);
  });

  it('refuses a name that could pass for another owner (a slash) or is empty', () => {
    expect(() => new LeaseOwner('a/b')).toThrow(/instance name/);
    expect(() => new LeaseOwner('')).toThrow(/instance name/);
  });

  it('is named as configured, else by this host and port, and never shares a name when the port is any free one', () => {
    expect(instanceName('api-1', 5000)).toBe('api-1');
    expect(instanceName(undefined, 5000)).toMatch(/:5000$/);
    expect(
      instanceName(undefined, 5000).startsWith(
        hostname()
          .slice(0, 3)
          .replace(/[^A-Za-z0-9._-]/g, '-'),
      ),
    ).toBe(true);
    expect(instanceName(undefined, 0)).not.toBe(instanceName(undefined, 0));
    expect(() => new LeaseOwner(instanceName(undefined, 5000))).not.toThrow();
  });
});
