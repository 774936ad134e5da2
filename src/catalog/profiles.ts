import { names, readVocabulary, record, text, VocabularyError } from '../config/vocabulary.js';
import { compileGlob, type Glob } from '../util/glob.js';

/**
 * Per-server profiles (`vocabulary/servers.json`): what general words cannot say about one
 * server's tools, like which of GitHub's tools a reviewer reads first. A profile applies to a
 * server that lists at least `min` of its `detect` tools, whatever the rc calls the server, and
 * adds that server's tools (globs on tool names) to preset groups of the profile's group names.
 */
export interface ServerProfileMatch {
  /** The profile's name, for reasons ("server profile github-mcp-server"). */
  readonly name: string;
  /** Per preset group, the globs on tool names the profile puts in it. */
  readonly groups: ReadonlyMap<string, readonly Glob[]>;
}

interface Profile extends ServerProfileMatch {
  readonly detect: ReadonlySet<string>;
  readonly min: number;
}

let loaded: Profile[] | undefined;

/** The profiles, read on first use. */
function profiles(): Profile[] {
  loaded ??= readVocabulary('servers', (json) =>
    Object.entries(record(json.servers, 'servers')).map(([name, value]) => {
      const at = `servers.${name}`;
      const profile = record(value, at);
      text(profile.why, `${at}.why`);
      const detect = profile.detect;
      if (!Array.isArray(detect) || !detect.every((item) => typeof item === 'string')) throw new VocabularyError(`${at}.detect: expected a list of tool names`);
      const min = profile.min;
      if (typeof min !== 'number' || !Number.isInteger(min) || min < 1) throw new VocabularyError(`${at}.min: expected a positive integer`);
      const groups = new Map<string, Glob[]>();
      for (const [group, value] of Object.entries(record(profile.groups, `${at}.groups`))) {
        const entry = record(value, `${at}.groups.${group}`);
        text(entry.why, `${at}.groups.${group}.why`);
        const tools = names(entry.tools, `${at}.groups.${group}.tools`);
        if (!tools) throw new VocabularyError(`${at}.groups.${group}.tools: expected a list of tool name globs`);
        groups.set(group, tools.map(compileGlob));
      }
      return { name, detect: new Set(detect as string[]), min, groups };
    }),
  );
  return loaded;
}

/**
 * The profile each server of `sources` matches (the first with enough of its detect tools), by
 * server name; servers no profile matches are left out.
 */
export function serverProfiles(sources: ReadonlyArray<{ server: string; tools: ReadonlyArray<{ name: string }> }>): Map<string, ServerProfileMatch> {
  const out = new Map<string, ServerProfileMatch>();
  for (const source of sources) {
    const names = new Set(source.tools.map((tool) => tool.name));
    const found = profiles().find((profile) => {
      let hits = 0;
      for (const name of profile.detect) if (names.has(name) && ++hits >= profile.min) return true;
      return false;
    });
    if (found) out.set(source.server, found);
  }
  return out;
}

/** The profiles' data as one string, for digests of what placement depends on. */
export function profilesDigestInput(): string {
  return JSON.stringify(profiles().map((profile) => [profile.name, [...profile.detect], profile.min, [...profile.groups].map(([group, globs]) => [group, globs.map((glob) => glob.source)])]));
}
