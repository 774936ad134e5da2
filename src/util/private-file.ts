import { renameSync, unlinkSync, writeFileSync } from 'node:fs';

/**
 * Writes `text` as `file`, whole or not at all: a temporary file beside it, created afresh
 * (O_EXCL), then renamed over it. So `file` itself is never written through: a link committed or
 * planted at its name (`lazytools.lock.json -> ~/.bashrc`) is replaced, not followed; a link
 * planted at the temporary name is removed, never written through; so is a file a crashed
 * process of the same pid left there. `mode` is the new file's (the umask applies). Throws what
 * the file system throws.
 */
export function writeFileWhole(file: string, text: string, mode = 0o666): void {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, text, { mode, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    unlinkSync(temp);
    writeFileSync(temp, text, { mode, flag: 'wx' });
  }
  try {
    renameSync(temp, file);
  } catch (error) {
    unlinkSync(temp);
    throw error;
  }
}

/** writeFileWhole, readable by the user only (sign-ins, caches). */
export function writePrivateFile(file: string, text: string): void {
  writeFileWhole(file, text, 0o600);
}
