import path from 'node:path';
import { projectRoot } from '../paths.ts';
import { API_ENTRIES, makeApiReport, namesOfReport, reportFile } from '../plugin-api/report/api-report.ts';

/**
 * `npm run api:report`: records the plugin API's reports as the code is now
 * (API Extractor, core/plugin-api/report/). Run it after a reviewed change
 * that only grows the API (a new export, a new optional property); the
 * report test fails until it is run, and the diff of the reports shows the
 * change for review.
 */
const { reports, problems } = makeApiReport({ record: true });
for (const entry of API_ENTRIES) {
  process.stdout.write(`recorded ${namesOfReport(reports[entry]).length} exports in ${path.relative(projectRoot, reportFile(entry))}\n`);
}
if (problems.length > 0) {
  process.stderr.write(`API Extractor found problems to fix:\n${problems.map((problem) => `  ${problem}`).join('\n')}\n`);
  process.exitCode = 1;
}
