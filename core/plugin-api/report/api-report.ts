import { Extractor, ExtractorConfig, type IConfigFile } from '@microsoft/api-extractor';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { projectRoot } from '../../paths.ts';

/** The plugin API's two halves, each with its report: `contract.api.md`, `kit.api.md`. */
export const API_ENTRIES = ['contract', 'kit'] as const;
export type ApiEntry = (typeof API_ENTRIES)[number];

export const REPORT_FOLDER = path.join(projectRoot, 'core', 'plugin-api', 'report');
export const reportFile = (entry: ApiEntry) => path.join(REPORT_FOLDER, `${entry}.api.md`);

export interface ApiReport {
  /** The report of each half as the code is now. */
  readonly reports: Readonly<Record<ApiEntry, string>>;
  /** What API Extractor said beyond the reports (an error in a declaration, a setting it refused). */
  readonly problems: readonly string[];
}

/**
 * The plugin API's reports, made by API Extractor (as Backstage makes its
 * plugins'): the project's compiler emits the declarations of contract.ts
 * and kit.ts into a scratch folder, and API Extractor reads each half from
 * there. With `record`, the checked-in reports are replaced; without it,
 * they are left alone and the fresh ones are only returned, for the test to
 * compare.
 */
export function makeApiReport(options: { record: boolean }): ApiReport {
  const out = mkdtempSync(path.join(tmpdir(), 'plugin-api-report-'));
  try {
    emitDeclarations(out);
    symlinkSync(path.join(projectRoot, 'node_modules'), path.join(out, 'node_modules'), 'dir');
    writeFileSync(path.join(out, 'package.json'), JSON.stringify({ name: 'plugin-api', version: '0.0.0' }));
    const problems: string[] = [];
    const kitNames = new Set<string>();
    const reports = {} as Record<ApiEntry, string>;
    for (const entry of API_ENTRIES) {
      const temp = path.join(out, 'report-temp');
      mkdirSync(temp, { recursive: true });
      const config = ExtractorConfig.prepare({
        configObject: extractorConfig(out, entry, options.record ? REPORT_FOLDER : path.join(out, 'report'), temp),
        configObjectFullPath: path.join(out, 'api-extractor.json'),
        packageJsonFullPath: path.join(out, 'package.json'),
      });
      mkdirSync(config.reportFolder, { recursive: true });
      Extractor.invoke(config, {
        localBuild: true,
        messageCallback: (message) => {
          message.handled = true;
          const forgotten = message.messageId === 'ae-forgotten-export' ? /"([^"]+)"/.exec(message.text)?.[1] : undefined;
          // The kit builds on the contract: a contract type it names is exported there, not forgotten.
          if (forgotten && entry === 'kit') kitNames.add(forgotten);
          // Console messages say where a report went (the comparison is the test's); the others are about the code.
          else if (message.category !== 'console' && (message.logLevel === 'error' || message.logLevel === 'warning'))
            problems.push(`${entry}: ${message.text}`);
        },
      });
      const written = path.join(config.reportFolder, `${entry}.api.md`);
      reports[entry] = existsSync(written) ? readFileSync(written, 'utf8') : '';
    }
    const contract = new Set(namesOfReport(reports.contract));
    for (const name of kitNames) if (!contract.has(name)) problems.push(`kit: the symbol "${name}" is neither exported by the kit nor by the contract`);
    return { reports, problems };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** The declarations of both halves and what they reach, emitted by the project's own compiler. */
function emitDeclarations(out: string): void {
  const config = path.join(out, 'tsconfig.emit.json');
  writeFileSync(
    config,
    JSON.stringify({
      extends: path.join(projectRoot, 'tsconfig.json'),
      compilerOptions: {
        noEmit: false,
        declaration: true,
        emitDeclarationOnly: true,
        outDir: path.join(out, 'dts'),
        rootDir: projectRoot,
        typeRoots: [path.join(projectRoot, 'node_modules', '@types')],
      },
      include: [],
      files: API_ENTRIES.map((entry) => path.join(projectRoot, 'core', 'plugin-api', `${entry}.ts`)),
    }),
  );
  try {
    execFileSync(process.execPath, [path.join(projectRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', config], { stdio: 'pipe' });
  } catch (error) {
    throw new Error(`declarations of the plugin API could not be emitted:\n${(error as { stdout?: Buffer }).stdout?.toString() ?? (error as Error).message}`);
  }
}

function extractorConfig(out: string, entry: ApiEntry, reportFolder: string, reportTempFolder: string): IConfigFile {
  const entryFile = path.join(out, 'dts', 'core', 'plugin-api', `${entry}.d.ts`);
  return {
    projectFolder: out,
    mainEntryPointFilePath: entryFile,
    compiler: {
      overrideTsconfig: {
        compilerOptions: {
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2024',
          lib: ['es2024'],
          strict: true,
          skipLibCheck: true,
          noEmit: true,
          allowImportingTsExtensions: true,
          types: ['node'],
          typeRoots: [path.join(projectRoot, 'node_modules', '@types')],
        },
        files: [entryFile],
      },
    },
    apiReport: { enabled: true, reportFolder, reportTempFolder, reportFileName: entry },
    docModel: { enabled: false },
    dtsRollup: { enabled: false },
    tsdocMetadata: { enabled: false },
    messages: {
      // The API has no release stages (@beta…): every export is the contract.
      extractorMessageReporting: {
        default: { logLevel: 'warning' as never },
        'ae-missing-release-tag': { logLevel: 'none' as never },
        'ae-undocumented': { logLevel: 'none' as never },
        // In the kit's report a contract type would be flagged as forgotten; makeApiReport judges those itself.
        ...(entry === 'kit' ? { 'ae-forgotten-export': { logLevel: 'warning' as never, addToApiReportFile: false } } : {}),
      },
      tsdocMessageReporting: { default: { logLevel: 'none' as never } },
    },
  };
}

const DECLARED = /^export (?:declare )?(?:abstract )?(?:interface|type|function|const|let|class|enum|namespace) ([A-Za-z_$][\w$]*)/gm;
const LISTED = /^export \{ ?([A-Za-z_$][\w$]*)(?: as ([A-Za-z_$][\w$]*))? ?\}/gm;

/** The names a report says its half exports, sorted. */
export function namesOfReport(report: string): string[] {
  const names = new Set<string>([...report.matchAll(DECLARED)].map((match) => match[1]));
  for (const match of report.matchAll(LISTED)) names.add(match[2] ?? match[1]);
  return [...names].sort();
}
