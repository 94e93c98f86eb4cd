import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import path from 'node:path';
import { projectRoot } from '../paths.ts';
import { lockDataFolder, type DataFolderLock } from './data-folder-lock.ts';
import { layOutFromTemplate } from './embedded-template.ts';

/**
 * PostgreSQL's default of 128 MB shared buffers is memory PGlite zero-fills
 * inside its WebAssembly heap at start, so it is resident from the first
 * second. 16 MB holds the working set of this service's tables many times
 * over; rows beyond it are read back through the OS page cache.
 */
export const EMBEDDED_SHARED_BUFFERS = '16MB';

/** A PGlite that gives the data folder's lock back once it is closed. */
class LockedPGlite extends PGlite {
  readonly #lock: DataFolderLock;
  constructor(dataDir: string, options: PGliteOptions, lock: DataFolderLock) {
    super(dataDir, options);
    this.#lock = lock;
  }
  override async close(): Promise<void> {
    try {
      await super.close();
    } finally {
      this.#lock.release();
    }
  }
}

/** Who holds the folder, for the message another process gets: `core/main.ts`, `core/cli/migrate.ts`. */
function currentCommand(): string {
  const script = process.argv[1];
  return script ? path.relative(projectRoot, script) || script : 'node';
}

/**
 * Opens the embedded database of a data folder: takes the folder's lock
 * (throws EmbeddedDatabaseInUse while another process holds it), lays a
 * fresh folder out from the bundled template, and starts PGlite with small
 * shared buffers. The lock goes back when the instance is closed, or when
 * the process exits.
 */
export function openEmbeddedDatabase(dataDir: string): PGlite {
  const lock = lockDataFolder(dataDir, currentCommand());
  try {
    layOutFromTemplate(dataDir);
    return new LockedPGlite(dataDir, { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${EMBEDDED_SHARED_BUFFERS}`] }, lock);
  } catch (error) {
    lock.release();
    throw error;
  }
}
