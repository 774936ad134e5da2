import { constants } from 'node:fs';
import { lstat, mkdir, open, rename, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { projectFolder } from '../util/root.js';
import type { ResolvedConfig } from '../config/resolve.js';

/** How a call reached a tool: named in the list, through execute_tool, or after search_tools found it. */
export type UsageVia = 'direct' | 'execute_tool' | 'search';

export interface UsageRecord {
  t: string;
  mode: string;
  tool: string;
  via: UsageVia;
}

/** Where usage is recorded: `.lazytools/usage.jsonl` beside the rc file. */
export function usagePath(rcFile: string | undefined, cwd: string): string {
  return path.join(projectFolder(rcFile, cwd), '.lazytools', 'usage.jsonl');
}

/**
 * Appends usage records to a local JSONL file (opt-in with `usage: true`), buffered so the hot
 * path only pushes to an array; flushed every second and on close.
 */
export class UsageRecorder {
  private buffer: string[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(readonly file: string) {}

  record(mode: string, tool: string, via: UsageVia): void {
    this.buffer.push(JSON.stringify({ t: new Date().toISOString(), mode, tool, via } satisfies UsageRecord));
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), 1_000);
      this.timer.unref();
    }
  }

  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.buffer.length === 0) return this.writing;
    const lines = `${this.buffer.join('\n')}\n`;
    this.buffer = [];
    this.writing = this.writing.then(async () => {
      const folder = path.dirname(this.file);
      await mkdir(folder, { recursive: true });
      // Nor into a folder a symlink names (`.lazytools` -> elsewhere, say from a pull request).
      if (!(await lstat(folder)).isDirectory()) return;
      // Never through a symlink (it would append to whatever file it names: the open fails) and
      // never into a FIFO or device (non-blocking, they open at once and are skipped): the records
      // are dropped like any failed write.
      const handle = await open(this.file, APPEND_FLAGS, 0o600);
      try {
        if (!(await handle.stat()).isFile()) return;
        await handle.appendFile(lines);
        if ((await handle.stat()).size > USAGE_FILE_MAX) await this.trim(handle);
      } finally {
        await handle.close();
      }
    }).catch(() => {});
    return this.writing;
  }

  /**
   * Keeps the file's newest USAGE_READ_MAX bytes (all a start reads) once it passes
   * USAGE_FILE_MAX: written beside it and renamed over it, so a reader sees the old file or the
   * new one, never half of one. Records another gateway appends during the copy may be lost: the
   * file is a fitting hint, not a log.
   */
  private async trim(handle: FileHandle): Promise<void> {
    const size = (await handle.stat()).size;
    const buffer = Buffer.alloc(USAGE_READ_MAX);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, size - USAGE_READ_MAX);
    const kept = buffer.subarray(0, bytesRead);
    const whole = kept.subarray(kept.indexOf(0x0a) + 1);
    const next = `${this.file}.${process.pid}.tmp`;
    const out = await open(next, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    try {
      await out.writeFile(whole);
    } finally {
      await out.close();
    }
    await rename(next, this.file).catch(async (error: unknown) => {
      await rm(next, { force: true });
      throw error;
    });
  }
}

/** Bytes of the usage file read at start: its newest records (older ones weigh little after decay). */
export const USAGE_READ_MAX = 4 * 1024 * 1024;

/** Size past which an append trims the usage file to its newest USAGE_READ_MAX bytes: it never grows without bound. */
export const USAGE_FILE_MAX = 2 * USAGE_READ_MAX;

// Read and write: an append that passes USAGE_FILE_MAX reads the newest records back to trim (`trim`).
const APPEND_FLAGS = constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * Reads a usage file's newest records (its last USAGE_READ_MAX bytes); malformed lines are
 * skipped. Anything but a regular file (a FIFO, a device, a directory), or a file in a folder that
 * is a symlink, reads as no records:
 * opening never waits for a writer and reading never runs past the bound, so a poisoned file
 * cannot hang or slow a start.
 */
export async function readUsage(file: string): Promise<UsageRecord[]> {
  let text: string;
  try {
    // A usage folder that is a symlink is not ours: neither read nor written (see flush).
    if (!(await lstat(path.dirname(file))).isDirectory()) return [];
    const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const info = await handle.stat();
      if (!info.isFile()) return [];
      const start = Math.max(0, info.size - USAGE_READ_MAX);
      const buffer = Buffer.alloc(info.size - start);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, start);
      text = buffer.subarray(0, bytesRead).toString('utf8');
      // Started inside a line: drop that partial line.
      if (start > 0) text = text.slice(text.indexOf('\n') + 1);
    } finally {
      await handle.close();
    }
  } catch {
    return [];
  }
  const records: UsageRecord[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const record = JSON.parse(line) as UsageRecord;
      if (typeof record.mode === 'string' && typeof record.tool === 'string' && typeof record.via === 'string') records.push(record);
    } catch {
      // a torn line from a crash: skip it
    }
  }
  return records;
}

/** Half-life of a recorded call as a fitting signal: a call a fortnight old counts half. */
const HALF_LIFE_MS = 14 * 24 * 3_600_000;

/**
 * Call counts per mode and tool, each call weighted by its age (half-life 14 days), for budget
 * fitting: tools a mode keeps using stay in its list.
 */
export function usageWeights(records: readonly UsageRecord[], now: number = Date.now()): Map<string, Map<string, number>> {
  const weights = new Map<string, Map<string, number>>();
  for (const record of records) {
    const at = Date.parse(record.t);
    const age = Number.isFinite(at) ? Math.max(0, now - at) : Number.POSITIVE_INFINITY;
    const weight = Math.pow(0.5, age / HALF_LIFE_MS);
    if (!(weight > 0.01)) continue;
    let byTool = weights.get(record.mode);
    if (!byTool) weights.set(record.mode, (byTool = new Map()));
    byTool.set(record.tool, (byTool.get(record.tool) ?? 0) + weight);
  }
  return weights;
}

/**
 * The config with the usage record's decayed counts attached (`usageWeights`), when rc `usage`
 * is on and the record exists: budget fitting then keeps the tools a mode keeps using. Read once
 * at start (and on reload), never per request.
 */
export async function withUsage(config: ResolvedConfig, cwd: string): Promise<ResolvedConfig> {
  if (!config.usage) return config;
  const records = await readUsage(usagePath(config.file, cwd));
  return records.length === 0 ? config : { ...config, usageWeights: usageWeights(records) };
}
