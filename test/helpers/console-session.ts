import type { FastifyInstance } from 'fastify';
import { E2E_JWT_SECRET } from './e2e-env.ts';
import { jwtFor } from './pipeline-plugins.ts';

/**
 * Signs in to the console with an admin token (as the console's sign-in
 * does), and answers the cookie header to send and the session's CSRF
 * token (what every change must carry), read from /console/api/me.
 */
export async function consoleSession(app: FastifyInstance, claims: Record<string, unknown> = { sub: 'ops', role: 'admin' }) {
  const signIn = await app.inject({ method: 'POST', url: '/console/api/session', payload: { token: jwtFor(E2E_JWT_SECRET, claims) } });
  if (signIn.statusCode !== 200) throw new Error(`console sign-in refused: ${signIn.statusCode} ${signIn.body}`);
  const cookie = `np_console=${encodeURIComponent(signIn.cookies.find((c) => c.name === 'np_console')!.value)}`;
  const me = await app.inject({ method: 'GET', url: '/console/api/me', headers: { cookie } });
  // The session cookie as the browser would hold it after /me (which may set it again).
  const latest = me.cookies.find((c) => c.name === 'np_console');
  return { cookie: latest ? `np_console=${encodeURIComponent(latest.value)}` : cookie, csrf: me.json().csrfToken as string };
}
