/**
 * The port a service started with `Server__Port=0` (the OS chooses a free
 * one) says it listens on: Fastify's `Server listening at http://…:<port>`
 * in its log. Undefined until that line has been printed.
 */
export function listeningPort(output: string): number | undefined {
  const match = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
  return match ? Number(match[1]) : undefined;
}
