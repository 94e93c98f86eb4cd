import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import * as contract from '../../core/plugin-api/contract.ts';
import * as pluginApi from '../../core/plugin-api/index.ts';
import * as kit from '../../core/plugin-api/kit.ts';
import { API_ENTRIES, makeApiReport, namesOfReport, reportFile, type ApiReport } from '../../core/plugin-api/report/api-report.ts';

/**
 * The plugin API is a public contract that only grows. Its reports
 * (core/plugin-api/report/, made by API Extractor) hold every export of the
 * contract and of the kit with its type. Removing or renaming one fails
 * here; any other change fails too until it is reviewed and recorded with
 * `npm run api:report`, so the reports' diff shows every change.
 */
describe('the plugin API only grows', () => {
  let fresh: ApiReport;
  const recorded = Object.fromEntries(API_ENTRIES.map((entry) => [entry, readFileSync(reportFile(entry), 'utf8')])) as Record<
    (typeof API_ENTRIES)[number],
    string
  >;

  beforeAll(() => {
    fresh = makeApiReport({ record: false });
  }, 120_000);

  it('API Extractor finds nothing to fix: every type a half names is exported by it (or, for the kit, by the contract)', () => {
    expect(fresh.problems).toEqual([]);
  });

  it.each(API_ENTRIES)('every export the %s report records is still there, under its name', (entry) => {
    const removed = namesOfReport(recorded[entry]).filter((name) => !namesOfReport(fresh.reports[entry]).includes(name));
    expect(removed, 'removed or renamed: deprecate instead (keep the old name working beside the new one)').toEqual([]);
  });

  it.each(API_ENTRIES)('the %s is as its report records it (a change that only grows the API is recorded with npm run api:report)', (entry) => {
    expect(fresh.reports[entry]).toBe(recorded[entry]);
  });

  it('every value a plugin can import is in a report, and #plugin-api is the two halves together', () => {
    const names = new Set([...namesOfReport(recorded.contract), ...namesOfReport(recorded.kit)]);
    expect(Object.keys(pluginApi).filter((name) => !names.has(name))).toEqual([]);
    expect(Object.keys(pluginApi).sort()).toEqual([...new Set([...Object.keys(contract), ...Object.keys(kit)])].sort());
    expect(namesOfReport(recorded.contract)).toEqual(
      expect.arrayContaining(['defineFeedPlugin', 'DeliveryPluginManifest', 'FeedPluginContext', 'PLUGIN_API_VERSION', 'PluginParts']),
    );
    expect(namesOfReport(recorded.kit)).toEqual(expect.arrayContaining(['itemStateStore', 'createOutboundClient', 'Limiter']));
  });

  it('the name scan sees a removal (a check that cannot fail is no check)', () => {
    const withoutOne = recorded.kit.replace(/^export function sequenceId\(/m, 'function sequenceId(');
    expect(withoutOne).not.toBe(recorded.kit);
    expect(namesOfReport(recorded.kit)).toContain('sequenceId');
    expect(namesOfReport(withoutOne)).not.toContain('sequenceId');
    expect(namesOfReport(recorded.contract)).toContain('Type');
  });
});
