import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../core/paths.ts';
import { importsIn, tsFiles } from '../../core/plugins/plugin-checks.ts';

/** Tests and the support modules they share (`*.test.ts`, `*.test-support.ts`): never loaded by the service. */
const isTestCode = (file: string) => file.endsWith('.test.ts') || file.endsWith('.test-support.ts');

const importsOf = (file: string) => importsIn(readFileSync(file, 'utf8'));

/** Plugins reach core only through #plugin-api, never another plugin (their tests may use test/); core never imports a plugin. */
function boundaryViolations(): string[] {
  const violations: string[] = [];
  const pluginsDir = path.join(projectRoot, 'plugins');
  for (const file of tsFiles(pluginsDir)) {
    const ownFolder = path.join(pluginsDir, path.relative(pluginsDir, file).split(path.sep)[0]);
    for (const specifier of importsOf(file)) {
      if (specifier.startsWith('#') && specifier !== '#plugin-api') violations.push(`${path.relative(projectRoot, file)} imports ${specifier}`);
      if (!specifier.startsWith('.')) continue;
      const target = path.resolve(path.dirname(file), specifier);
      // Tests beside a plugin (and their support modules), its benchmarks (<plugin>/bench/) and its demo part
      // (<plugin>/demo/) may also use the project's shared test doubles and helpers, the demo's protocol doubles
      // and the bench support.
      const support = ['test', 'demo', 'bench'].some((dir) => target.startsWith(path.join(projectRoot, dir) + path.sep));
      const besideIt = ['bench', 'demo'].some((dir) => file.startsWith(path.join(ownFolder, dir) + path.sep));
      const testSupport = (isTestCode(file) || besideIt) && support;
      if (!target.startsWith(ownFolder + path.sep) && !testSupport)
        violations.push(`${path.relative(projectRoot, file)} imports ${specifier} outside its folder`);
    }
  }
  for (const file of tsFiles(path.join(projectRoot, 'core'))) {
    for (const specifier of importsOf(file)) {
      if (specifier.startsWith('.') && path.resolve(path.dirname(file), specifier).startsWith(pluginsDir)) {
        violations.push(`${path.relative(projectRoot, file)} imports plugin code ${specifier}`);
      }
    }
  }
  return violations;
}

/** Core's tables, read from core's migrations (createTable('…') or CREATE TABLE …). */
function coreTables(): string[] {
  const names = new Set<string>();
  for (const file of tsFiles(path.join(projectRoot, 'migrations'))) {
    for (const match of readFileSync(file, 'utf8').matchAll(/createTable\(\s*'([a-z_0-9]+)'|CREATE TABLE (?:IF NOT EXISTS )?([a-z_0-9]+)/g))
      names.add(match[1] ?? match[2]);
  }
  return [...names].sort();
}

/**
 * A plugin's SQL names only its own tables: core's reach it through the
 * ports of the plugin API. Its migrations may still reference core's
 * subscription ids with a foreign key (declared, so a deleted subscription
 * takes its rows along); tests and benchmarks may look anywhere.
 */
function coreTableUses(source: string, tables: readonly string[]): string[] {
  return tables.filter((table) => new RegExp(`\\b${table}\\b`).test(source));
}

function pluginSqlViolations(): string[] {
  const tables = coreTables();
  return (
    tsFiles(path.join(projectRoot, 'plugins'))
      // Benchmarks (a plugin's bench/) seed the tables they measure, as tests do.
      .filter((file) => !isTestCode(file) && !file.split(path.sep).includes('migrations') && !file.split(path.sep).includes('bench'))
      .flatMap((file) => coreTableUses(readFileSync(file, 'utf8'), tables).map((table) => `${path.relative(projectRoot, file)} names core table ${table}`))
  );
}

describe('architecture', () => {
  it("plugins' SQL never names a core table", () => {
    expect(coreTables()).toEqual(expect.arrayContaining(['notification_delivery_ledger', 'notification_subscriptions', 'notification_events']));
    expect(pluginSqlViolations()).toEqual([]);
  });

  it('the table scan sees a core table in SQL text (a check that cannot fail is no check)', () => {
    expect(coreTableUses('SELECT s.is_active FROM notification_subscriptions s', coreTables())).toEqual(['notification_subscriptions']);
    expect(coreTableUses('SELECT 1 FROM email_outbox', coreTables())).toEqual([]);
  });

  it('plugins import only #plugin-api and their own folder; core imports no plugin', () => {
    expect(boundaryViolations()).toEqual([]);
  });

  it('the import scan sees imports (a check that cannot fail is no check)', () => {
    expect(importsOf(path.join(projectRoot, 'plugins', 'utility-power-outages', 'index.ts'))).toContain('#plugin-api');
  });
});
