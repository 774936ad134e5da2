import { renameSync, unlinkSync, writeFileSync } from 'node:fs';

/**
 * Writes `text` as `file`, readable by the user only, whole or not at all: a temporary file beside
 * it, created afresh (O_EXCL), then renamed over it. A link planted at the temporary name (in a
 * folder someone else could write) is removed, never written through; so is a file a crashed
 * process of the same pid left there. Throws what the file system throws.
 */
export function writePrivateFile(file: string, text: string): void {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, text, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    unlinkSync(temp);
    writeFileSync(temp, text, { mode: 0o600, flag: 'wx' });
  }
  renameSync(temp, file);
}
