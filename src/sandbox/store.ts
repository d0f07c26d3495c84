/**
 * Plain JSON files in the sandbox's data folder, written atomically (temporary file + rename) so a
 * crash or a second process (the CLI next to a running server) never sees half a file. Reads are
 * cached by modification time, so a server picks up what the CLI wrote without a restart.
 */
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';

export const DEFAULT_DATA_DIR = '.sandbox-data';

export function resolveDataDir(dataDir: string | undefined): string {
  return resolve(dataDir ?? DEFAULT_DATA_DIR);
}

export class JsonFile<T> {
  private cache: { stamp: string; value: T } | undefined;

  constructor(
    readonly path: string,
    private readonly mode = 0o600,
  ) {}

  static in<T>(dataDir: string, name: string, mode?: number): JsonFile<T> {
    return new JsonFile<T>(join(dataDir, name), mode);
  }

  /** The stored value, or undefined when the file does not exist yet. */
  read(): T | undefined {
    let stamp: string;
    try {
      const stat = statSync(this.path);
      stamp = `${stat.mtimeMs}:${stat.size}:${stat.ino}`;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    if (this.cache?.stamp === stamp) return this.cache.value;
    const text = readFileSync(this.path, 'utf8');
    let value: T;
    try {
      value = JSON.parse(text) as T;
    } catch (error) {
      throw new Error(`${this.path} is not valid JSON (${(error as Error).message}); delete it to start afresh`);
    }
    this.cache = { stamp, value };
    return value;
  }

  write(value: T): void {
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    const temporary = `${this.path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(value, null, 2)}\n`, { mode: this.mode });
    renameSync(temporary, this.path);
    this.cache = undefined;
  }

  /** Reads (or starts from `initial`), applies `change`, writes, and returns the new value. */
  update(initial: () => T, change: (value: T) => T): T {
    const next = change(this.read() ?? initial());
    this.write(next);
    return next;
  }
}
