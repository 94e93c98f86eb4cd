import { parseArgs } from 'node:util';
import { createSigner } from 'fast-jwt';
import { configurePlatform } from '../boot.ts';
import { readProcessEnv } from '../config/env-source.ts';
import { pluginRootsOf } from '../paths.ts';

const USAGE = `Usage: npm run token -- --sub <name> [--admin] [--hours <n>]

Prints a bearer token (an HS256 JWT) for the service's Jwt__Secret, read from
the environment or the .env file, as \`npm start\` reads them:
  --sub <name>   the user the token names (its "sub" claim), required
  --admin        the admin role: /api/admin/ routes and the operator console
  --hours <n>    how long it is valid, 1 to 720 hours (default 12)
Send it as "Authorization: Bearer <token>".
`;

/** `npm run token -- --admin --sub <name>`: a bearer token for the configured secret, on stdout. */
try {
  const { values } = parseArgs({
    options: {
      sub: { type: 'string' },
      admin: { type: 'boolean', default: false },
      hours: { type: 'string', default: '12' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(USAGE);
  } else {
    const hours = Number(values.hours);
    if (!values.sub || values.sub.trim() === '') throw new Error(`--sub <name> is required.\n\n${USAGE}`);
    if (!Number.isInteger(hours) || hours < 1 || hours > 720) throw new Error(`--hours must be a whole number from 1 to 720.\n\n${USAGE}`);
    const { config } = await configurePlatform(readProcessEnv(), pluginRootsOf(process.env));
    const secret = config.Jwt.Secret;
    if (!secret) throw new Error('Jwt__Secret is not set (in the environment or .env): the service accepts no bearer token without it.');
    const sign = createSigner({ key: secret, algorithm: 'HS256', expiresIn: hours * 3600 * 1000 });
    process.stdout.write(`${sign({ sub: values.sub.trim(), ...(values.admin ? { role: 'admin' } : {}) })}\n`);
  }
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exitCode = 2;
}
