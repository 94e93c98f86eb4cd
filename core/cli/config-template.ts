import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadPlatform } from '../boot.ts';
import { renderConfigReference, renderEnvTemplate, replaceReferenceBlock } from '../config/env-template.ts';
import { projectRoot, pluginRootsOf } from '../paths.ts';

const USAGE = `Usage: npm run config:template [-- <file>]

Writes the env template (every configuration key with its default and
meaning, from the schemas of core and every installed plugin) to
config/env.template, or to <file>, and, without <file>, the configuration
reference in docs/configuration.md.
`;

/** `npm run config:template [file]`: config/env.template (or the given file) and docs/configuration.md's reference. */
const argument = process.argv[2];
if (argument === '--help' || argument === '-h') {
  process.stdout.write(USAGE);
} else if (argument?.startsWith('-')) {
  process.stderr.write(`unknown option ${argument}\n\n${USAGE}`);
  process.exitCode = 2;
} else {
  const { registry, schema } = await loadPlatform(pluginRootsOf(process.env));
  const examples = registry.templateExamples();
  const target = path.resolve(argument ?? path.join(projectRoot, 'config', 'env.template'));
  writeFileSync(target, renderEnvTemplate(schema, examples));
  process.stdout.write(`wrote ${target}\n`);
  if (!argument) {
    const referencePath = path.join(projectRoot, 'docs', 'configuration.md');
    writeFileSync(referencePath, replaceReferenceBlock(readFileSync(referencePath, 'utf8'), renderConfigReference(schema, examples)));
    process.stdout.write(`updated the configuration reference in ${referencePath}\n`);
  }
}
