import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../core/paths.ts';
import { testFilesOf, testsThatSeeEveryPlugin } from './selection.ts';

const testFiles = testFilesOf(projectRoot);

describe("the drop-in pass's tests: those that see every installed plugin", () => {
  const selected = testsThatSeeEveryPlugin(projectRoot, [...testFiles, 'plugins/delivery-chat/chat-target.test.ts'], ['delivery-chat']);

  it('holds the tests of every plugin together: discovery, the catalog on every plugin, the API document, the route walks, the tree checks', () => {
    expect(selected).toEqual(
      expect.arrayContaining([
        'test/foundation/discovery.test.ts',
        'test/operations/openapi.test.ts',
        'test/operations/metrics.test.ts',
        'test/hardening/route-walk.test.ts', // through the hostile-input harness it imports
        'test/hardening/fuzz-routes.test.ts',
        'test/architecture/locales.test.ts',
        'test/architecture/plugin-boundary.test.ts',
        'test/foundation/process.test.ts', // npm start
        'test/e2e/demo.test.ts',
        'plugins/delivery-chat/chat-target.test.ts', // a dropped-in plugin's own tests, in place
      ]),
    );
  });

  it('leaves out a test whose app names its own plugins, and a pure one: the same inputs with a folder added', () => {
    expect(selected).not.toContain('core/plugin-api/retry-policy.test.ts');
    expect(selected).not.toContain('test/e2e/quiet-hours.test.ts');
    expect(selected).not.toContain('plugins/delivery-sms/e2e/delivery-lanes.test.ts');
    expect(selected.length).toBeLessThan(testFiles.length / 2);
  });
});
