/**
 * The raw-POST settings the floor is measured with: requests in flight
 * across the connections, and HTTP/1.1 pipelining. bench:e2e's floor is the
 * fastest of them, so its ratio never flatters the service with a slow
 * client; floor-check prints each.
 */
export const FLOOR_SETTINGS = (connections: number): ReadonlyArray<{ readonly inFlight: number; readonly pipelining: number }> => [
  { inFlight: connections, pipelining: 1 },
  { inFlight: 256, pipelining: 1 },
  { inFlight: 1024, pipelining: 1 },
  { inFlight: 256, pipelining: 4 },
  { inFlight: 256, pipelining: 16 },
  { inFlight: 1024, pipelining: 16 },
];

export const settingWords = (setting: { inFlight: number; pipelining: number }) =>
  `${setting.inFlight} in flight${setting.pipelining > 1 ? `, pipelining ${setting.pipelining}` : ''}`;
