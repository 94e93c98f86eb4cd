import type { FastifyInstance } from 'fastify';
import Type from 'typebox';

export interface ReadinessProbe {
  /** Resolves true when the database answers within the probe's budget. */
  databaseAnswers(): Promise<boolean>;
  migrationsApplied(): boolean;
  pluginsLoaded(): boolean;
}

const Check = Type.Union([Type.Literal('ok'), Type.Literal('failing')]);
const Readiness = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('not ready')]),
  checks: Type.Object({ database: Check, migrations: Check, plugins: Check }),
});
const tags = ['health'];

/** `2026-11-22T10:00:00.000+00:00`: UTC with the offset written out. */
const utcTimestamp = (date: Date) => date.toISOString().replace(/Z$/, '+00:00');

export async function healthRoutes(app: FastifyInstance, options: { probe: ReadinessProbe; serviceName: string; now: () => Date }) {
  const { probe, serviceName, now } = options;
  app.get(
    '/',
    {
      schema: {
        summary: 'The service is alive',
        description: 'A browser (asking for text/html) is sent to the subscribe page instead: people meet the pages, clients the JSON.',
        tags,
        response: {
          200: Type.Object({ service: Type.String(), status: Type.Literal('alive') }),
          303: Type.Null({ description: 'To /subscribe (a browser).' }),
        },
      },
    },
    async (request, reply) => {
      if (/\btext\/html\b/.test(request.headers.accept ?? '')) return reply.redirect('/subscribe', 303);
      return { service: serviceName, status: 'alive' as const };
    },
  );
  app.get(
    '/health',
    { schema: { summary: 'Liveness, with the server time (UTC)', tags, response: { 200: Type.Object({ Status: Type.Literal('OK'), Time: Type.String() }) } } },
    async () => ({ Status: 'OK' as const, Time: utcTimestamp(now()) }),
  );
  app.get(
    '/health/ready',
    {
      schema: {
        summary: 'Readiness: the database answers, migrations are applied, plugins are loaded',
        description: 'A feed that is failing does not make the service unready: see GET /api/admin/feeds.',
        tags,
        response: { 200: Readiness, 503: { ...Readiness, description: 'Not ready: the failing check says why.' } },
      },
    },
    async (_request, reply) => {
      const database = await probe.databaseAnswers();
      const checks = {
        database: database ? 'ok' : 'failing',
        migrations: probe.migrationsApplied() ? 'ok' : 'failing',
        plugins: probe.pluginsLoaded() ? 'ok' : 'failing',
      } as const;
      const ready = Object.values(checks).every((check) => check === 'ok');
      return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready', checks });
    },
  );
}
