import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadPlatform } from '../boot.ts';
import { renderConfigReference, renderEnvTemplate, replaceReferenceBlock } from '../config/env-template.ts';
import { projectRoot } from '../paths.ts';

/**
 * `npm run config:template [file]`: writes config/env.template (or the given
 * file) and the README's configuration reference from the schemas of core
 * and every installed plugin.
 */
const { registry, schema } = await loadPlatform();
const examples = registry.templateExamples();
const target = path.resolve(process.argv[2] ?? path.join(projectRoot, 'config', 'env.template'));
writeFileSync(target, renderEnvTemplate(schema, examples));
process.stdout.write(`wrote ${target}\n`);
if (!process.argv[2]) {
  const readmePath = path.join(projectRoot, 'README.md');
  writeFileSync(readmePath, replaceReferenceBlock(readFileSync(readmePath, 'utf8'), renderConfigReference(schema, examples)));
  process.stdout.write(`updated the configuration reference in ${readmePath}\n`);
}
