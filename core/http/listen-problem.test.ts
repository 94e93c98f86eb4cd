import { describe, expect, it } from 'vitest';
import { listenProblem } from './listen-problem.ts';

const error = (code: string) => Object.assign(new Error(code), { code });

describe('listenProblem', () => {
  it.each([
    [
      'EADDRINUSE',
      5000,
      /^port 5000 on 127\.0\.0\.1 is already in use by another program \(on macOS, the AirPlay Receiver holds port 5000.*Set Server__Port to a free port/,
    ],
    ['EADDRINUSE', 8080, /^port 8080 on 127\.0\.0\.1 is already in use by another program\. Set Server__Port/],
    ['EACCES', 80, /Server__Port to a port from 1024 up/],
    ['EADDRNOTAVAIL', 5000, /Set Server__Host/],
  ])('%s on port %i names the setting', (code, port, words) => {
    expect(listenProblem(error(code), '127.0.0.1', port)).toMatch(words);
  });

  it('leaves other errors to their own message', () => {
    expect(listenProblem(error('ECONNRESET'), '127.0.0.1', 5000)).toBeNull();
  });
});
