import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPlatform } from '../../core/boot.ts';
import { projectRoot } from '../../core/paths.ts';
import { shippedPluginsDir } from '../helpers/shipped-plugins.ts';

const { registry } = await loadPlatform(shippedPluginsDir());

describe('the CAP table of docs/api.md', () => {
  it('says for each event type exactly what the shipped plugins publish', () => {
    const readme = readFileSync(path.join(projectRoot, 'docs', 'api.md'), 'utf8');
    const header = '| Feed | Event type | msgType (references) | event | urgency | severity | certainty |';
    const table = readme.slice(readme.indexOf(header)).split('\n\n')[0].split('\n').slice(2);
    const documented = table.map((line) => {
      const [feed, type, msgType, event, urgency, severity, certainty] = line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim());
      return [feed, type, msgType.split(' ')[0], event, urgency, severity, certainty];
    });
    const published = registry.feeds.flatMap((feed) =>
      Object.entries(feed.publicViews?.alerts?.profiles ?? {}).map(([type, p]) => [feed.feed.id, type, p.msgType, p.event, p.urgency, p.severity, p.certainty]),
    );
    expect(published.length).toBeGreaterThan(0);
    expect(documented.sort()).toEqual(published.sort());
  });
});
