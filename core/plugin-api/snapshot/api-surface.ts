import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { projectRoot } from '../../paths.ts';

/**
 * The plugin API as plugins see it: the declarations TypeScript emits for
 * core/plugin-api/index.ts and every module it reaches inside the project
 * (comments removed), one section per file, and the names it exports. The
 * snapshot test compares it with plugin-api.snapshot.txt.
 */
export interface ApiSurface {
  /** `// core/plugin-api/manifest.d.ts` sections, in path order. */
  readonly declarations: string;
  /** Every name index.ts exports, value or type, sorted. */
  readonly names: readonly string[];
}

export const SNAPSHOT_FILE = path.join(projectRoot, 'core', 'plugin-api', 'snapshot', 'plugin-api.snapshot.txt');

const RELATIVE = /(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;
const DECLARED = /^export (?:declare )?(?:abstract )?(?:interface|type|function|const|let|class|enum|namespace) ([A-Za-z_$][\w$]*)/gm;
const LISTED = /^export (?:type )?\{([^}]*)\}(?: from ['"]([^'"]+)['"])?/gm;
const STAR = /^export (?:type )?\* from ['"]([^'"]+)['"]/gm;

/** Emits the declarations into a scratch folder with the project's compiler and reads the closure of index.d.ts. */
export function readApiSurface(): ApiSurface {
  const out = mkdtempSync(path.join(tmpdir(), 'plugin-api-'));
  try {
    const config = path.join(out, 'tsconfig.json');
    writeFileSync(config, JSON.stringify({
      extends: path.join(projectRoot, 'tsconfig.json'),
      compilerOptions: {
        noEmit: false, declaration: true, emitDeclarationOnly: true, removeComments: true, outDir: out, rootDir: projectRoot,
        typeRoots: [path.join(projectRoot, 'node_modules', '@types')],
      },
      include: [],
      files: [path.join(projectRoot, 'core', 'plugin-api', 'index.ts')],
    }));
    try {
      execFileSync(process.execPath, [path.join(projectRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', config], { stdio: 'pipe' });
    } catch (error) {
      throw new Error(`declarations of the plugin API could not be emitted:\n${(error as { stdout?: Buffer }).stdout?.toString() ?? (error as Error).message}`);
    }
    const files = new Map<string, string>();
    const visit = (file: string) => {
      if (files.has(file)) return;
      const text = readFileSync(path.join(out, file), 'utf8');
      files.set(file, text);
      for (const match of text.matchAll(RELATIVE)) visit(path.posix.join(path.posix.dirname(file), match[1].replace(/\.ts$/, '.d.ts').replace(/\.js$/, '.d.ts')));
    };
    visit('core/plugin-api/index.d.ts');
    const declarations = [...files.keys()].sort().map((file) => `// ${file}\n${files.get(file)!.trim()}\n`).join('\n');
    return { declarations, names: [...exportedNames('core/plugin-api/index.d.ts', files)].sort() };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** The names a declaration file exports, following `export *` and re-export lists into the files read. */
function exportedNames(file: string, files: ReadonlyMap<string, string>): Set<string> {
  const text = files.get(file) ?? '';
  const names = new Set<string>([...text.matchAll(DECLARED)].map((match) => match[1]));
  for (const match of text.matchAll(LISTED)) {
    for (const entry of match[1].split(',').map((part) => part.trim()).filter(Boolean)) {
      names.add(entry.replace(/^type /, '').split(/\s+as\s+/).at(-1)!.trim());
    }
  }
  for (const match of text.matchAll(STAR)) {
    const target = match[1].startsWith('.') ? path.posix.join(path.posix.dirname(file), match[1].replace(/\.ts$/, '.d.ts')) : null;
    for (const name of target ? exportedNames(target, files) : []) names.add(name);
  }
  return names;
}

/** The names of the snapshot's index.d.ts, read back from the snapshot file. */
export function namesOfSnapshot(snapshot: string): string[] {
  const files = new Map<string, string>();
  for (const section of snapshot.split(/^\/\/ (?=\S+\.d\.ts$)/m).filter(Boolean)) {
    const newline = section.indexOf('\n');
    files.set(section.slice(0, newline).trim(), section.slice(newline + 1));
  }
  return [...exportedNames('core/plugin-api/index.d.ts', files)].sort();
}
