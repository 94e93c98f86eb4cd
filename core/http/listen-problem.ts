/**
 * Why the service could not listen, in words that say which setting to
 * change (pure); null for an error of another kind.
 */
export function listenProblem(error: NodeJS.ErrnoException, host: string, port: number): string | null {
  if (error.code === 'EADDRINUSE') {
    const airPlay = port === 5000 ? ' (on macOS, the AirPlay Receiver holds port 5000: turn it off in System Settings, or use another port)' : '';
    return `port ${port} on ${host} is already in use by another program${airPlay}. Set Server__Port to a free port, for example Server__Port=5080 npm start.`;
  }
  if (error.code === 'EACCES') return `the service may not listen on port ${port} (ports below 1024 need privileges). Set Server__Port to a port from 1024 up.`;
  if (error.code === 'EADDRNOTAVAIL') return `${host} is not an address of this machine. Set Server__Host to one it has (127.0.0.1 behind a proxy).`;
  return null;
}
