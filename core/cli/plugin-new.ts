import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pluginRootsOf } from '../paths.ts';
import { feedSkeleton, targetSkeleton } from './plugin-skeletons.ts';

const USAGE = `Usage: npm run plugin:new -- feed <name>     a feed plugin in plugins/<name> (in the first folder of PLUGINS_DIR when set)
       npm run plugin:new -- target <name>   a delivery target plugin

<name> is kebab-case (water-supply, delivery-chat). The files are a small
plugin that starts as it is; docs/writing-a-plugin.md says what to change.
`;

/** `npm run plugin:new -- feed|target <name>`: writes a plugin folder to start from. */
const [kind, name] = process.argv.slice(2);
if (kind === '--help' || kind === '-h' || kind === undefined) {
  process.stdout.write(USAGE);
  process.exitCode = kind === undefined ? 2 : 0;
} else if ((kind !== 'feed' && kind !== 'target') || !name || !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(name)) {
  process.stderr.write(`plugin:new: expected feed or target and a kebab-case name\n\n${USAGE}`);
  process.exitCode = 2;
} else {
  // Into the first folder of PLUGINS_DIR when it names one, else plugins/.
  const roots = pluginRootsOf(process.env);
  const dir = path.join((roots[1] ?? roots[0]!).dir, name);
  if (existsSync(dir)) {
    process.stderr.write(`plugin:new: ${dir} exists already; nothing written\n`);
    process.exitCode = 1;
  } else {
    mkdirSync(dir, { recursive: true });
    const files = kind === 'feed' ? feedSkeleton(name) : targetSkeleton(name);
    for (const [file, text] of Object.entries(files)) writeFileSync(path.join(dir, file), text);
    process.stdout.write(
      `wrote ${Object.keys(files)
        .map((file) => path.join(dir, file))
        .join(', ')}\nnext: docs/writing-a-plugin.md\n`,
    );
  }
}
