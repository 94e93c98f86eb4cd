import { describe, expect, it } from 'vitest';
import { serverTimeouts } from './server-timeouts.ts';

describe('serverTimeouts', () => {
  it.each([
    [30, { requestTimeout: 30_000, connectionTimeout: 60_000, keepAliveTimeout: 65_000, http: { headersTimeout: 30_000, connectionsCheckingInterval: 1000 } }],
    [1, { requestTimeout: 1000, connectionTimeout: 2000, keepAliveTimeout: 65_000, http: { headersTimeout: 1000, connectionsCheckingInterval: 250 } }],
    [
      300,
      { requestTimeout: 300_000, connectionTimeout: 600_000, keepAliveTimeout: 65_000, http: { headersTimeout: 60_000, connectionsCheckingInterval: 1000 } },
    ],
  ])('%i s', (seconds, expected) => {
    const timeouts = serverTimeouts(seconds);
    expect(timeouts).toEqual(expected);
    // Node refuses a headers timeout longer than the request timeout.
    expect(timeouts.http.headersTimeout).toBeLessThanOrEqual(timeouts.requestTimeout);
  });
});
