import type { ServerTools } from '../catalog/catalog.js';
import type { ResolvedConfig } from '../config/resolve.js';
import type { Logger } from '../util/log.js';
import { ConfigError } from '../util/errors.js';
import { createUpstreams } from './connect.js';
import { counted } from '../util/plural.js';
import { shownName } from '../config/secrets.js';

export interface LiveSnapshot {
  sources: ServerTools[];
  failures: Array<{ server: string; error: string }>;
}

/**
 * Connects to every upstream of the rc once, lists its tools and disconnects: what `lock` writes
 * and `lock --check` compares. `progress` hears each server as it answers or fails (a failure's
 * reason is in `failures`, not repeated there).
 *
 * @throws ConfigError, before any server is contacted, when an entry cannot be read (an unset
 *   `${VAR}`): the rc is wrong, not the server, and a lock written without that server would look
 *   like one it could not reach. Each such entry is named by its key path.
 */
export async function snapshotUpstreams(
  config: ResolvedConfig,
  options: { env?: NodeJS.ProcessEnv; logger?: Logger; progress?: (line: string) => void } = {},
): Promise<LiveSnapshot> {
  const upstreams = createUpstreams(config, { env: options.env, logger: options.logger });
  const unreadable = upstreams.flatMap((upstream) => (upstream.disabledReason === undefined ? [] : [upstream.disabledReason]));
  if (unreadable.length === 1) throw new ConfigError(unreadable[0] as string, config.file);
  if (unreadable.length > 1) throw new ConfigError(`${unreadable.length} servers cannot be started:\n${unreadable.map((reason) => `  ${reason}`).join('\n')}`, config.file);
  const sources: ServerTools[] = [];
  const failures: LiveSnapshot['failures'] = [];
  await Promise.all(
    upstreams.map(async (upstream) => {
      options.progress?.(`${shownName(upstream.name)}: connecting`);
      try {
        // Bounded: a server that never answers costs its start timeout, not the whole lock.
        await upstream.startWithin();
        sources.push({ server: upstream.name, tools: upstream.tools, profile: upstream.profile() });
        options.progress?.(`${shownName(upstream.name)}: ${counted(upstream.tools.length, 'tool')}`);
      } catch (error) {
        failures.push({ server: upstream.name, error: (error as Error).message });
        // The reason is the caller's to print once (lock lists every failure with it at the end).
        options.progress?.(`${shownName(upstream.name)}: failed`);
      } finally {
        await upstream.stop();
      }
    }),
  );
  return { sources, failures };
}
