import { createHmac } from 'node:crypto';
import { cpSync, mkdtempSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tmpRoot } from './databases.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * A plugins folder with the real feed plugins and the fixture delivery
 * targets (Push, Email) in place of the real ones, for pipeline tests that
 * must not depend on a push server or an SMTP relay.
 */
export function pipelinePluginsDir(extra: string[] = []): string {
  const dir = mkdtempSync(path.join(tmpRoot(), 'plugins-'));
  for (const feed of ['utility-power-outages', 'utility-scheduled-outages']) {
    cpSync(path.join(root, 'plugins', feed), path.join(dir, feed), { recursive: true });
  }
  for (const fixture of ['fixture-push', 'fixture-email', ...extra]) {
    cpSync(path.join(root, 'test', 'fixtures', 'delivery-plugins', fixture), path.join(dir, fixture), { recursive: true });
  }
  return dir;
}

export function jwtFor(secret: string, claims: Record<string, unknown>): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ iat: Math.floor(Date.now() / 1000), ...claims })}`;
  return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
}
