export interface PgConnectionSettings {
  host: string;
  port: number;
  database: string;
  user: string;
  password?: string;
  ssl?: boolean | { rejectUnauthorized: boolean };
}

const KEY_ALIASES: Record<string, keyof PgConnectionSettings | 'sslmode'> = {
  host: 'host',
  server: 'host',
  'data source': 'host',
  port: 'port',
  database: 'database',
  'initial catalog': 'database',
  db: 'database',
  username: 'user',
  'user id': 'user',
  userid: 'user',
  user: 'user',
  uid: 'user',
  password: 'password',
  pwd: 'password',
  'ssl mode': 'sslmode',
  sslmode: 'sslmode',
};

function sslFrom(mode: string | null | undefined): PgConnectionSettings['ssl'] {
  switch ((mode ?? '').toLowerCase()) {
    case '':
    case 'disable':
    case 'allow':
    case 'prefer':
      return undefined;
    case 'require':
      return { rejectUnauthorized: false };
    default:
      return true; // verify-ca, verify-full
  }
}

/**
 * Parses `postgres://user:pass@host:5432/db?sslmode=require` or the
 * key/value form `Host=h;Port=5432;Database=db;Username=u;Password=p` (keys
 * case-insensitive). Errors never repeat the input: it holds a password.
 */
export function parseConnectionString(input: string): PgConnectionSettings {
  const text = input.trim();
  if (/^postgres(ql)?:\/\//i.test(text)) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new Error('ConnectionStrings__DefaultConnection is not a valid postgres:// URL');
    }
    return {
      host: decodeURIComponent(url.hostname.replace(/^\[|\]$/g, '')) || '127.0.0.1',
      port: url.port ? Number(url.port) : 5432,
      database: decodeURIComponent(url.pathname.replace(/^\//, '')) || 'postgres',
      user: decodeURIComponent(url.username) || 'postgres',
      password: url.password ? decodeURIComponent(url.password) : undefined,
      ssl: sslFrom(url.searchParams.get('sslmode')),
    };
  }
  const settings: Partial<PgConnectionSettings> & { sslmode?: string } = {};
  for (const part of text.split(';')) {
    if (part.trim() === '') continue;
    const eq = part.indexOf('=');
    if (eq < 0) throw new Error('ConnectionStrings__DefaultConnection: each part must be Key=Value');
    const key = KEY_ALIASES[part.slice(0, eq).trim().toLowerCase()];
    const value = part.slice(eq + 1).trim();
    if (!key) continue; // options such as Pooling= or Timeout= have no pg equivalent here
    if (key === 'port') {
      const port = Number(value);
      if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error('ConnectionStrings__DefaultConnection: Port must be 1..65535');
      settings.port = port;
    } else {
      (settings as Record<string, string>)[key] = value;
    }
  }
  if (!settings.host) throw new Error('ConnectionStrings__DefaultConnection: Host is required');
  return {
    host: settings.host,
    port: settings.port ?? 5432,
    database: settings.database || 'postgres',
    user: settings.user || 'postgres',
    password: settings.password || undefined,
    ssl: sslFrom(settings.sslmode),
  };
}

/** For logs: everything but the password. */
export function describeConnection(settings: PgConnectionSettings): string {
  return `postgres://${settings.user}@${settings.host}:${settings.port}/${settings.database}`;
}
