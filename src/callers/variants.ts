import { CLIENT_CAPABILITIES_META_KEY } from '@modelcontextprotocol/server';
import type { ResolvedConfig } from '../config/resolve.js';
import { modeNamed } from '../focus/policy.js';
import { resolveIntent } from '../search/intent.js';
import { clipText } from '../util/bounds.js';

/*
 * Server variants (SEP-2053; closed pending the working group, so behind rc `variants`), with the
 * keys of the reference implementation: the server answers `availableVariants` under
 * `capabilities.experimental["io.modelcontextprotocol/server-variants"]`; a client gives hints to
 * rank them under its own `experimental["io.modelcontextprotocol/server-variants"].variantHints.hints`;
 * a request picks one with `_meta["io.modelcontextprotocol/server-variant"]`.
 */

/**
 * useCase hints one advertised variant carries, each at most USE_CASE_CHARS: rc `aliases` have no
 * bound of their own (a mode's description has, 1,000), and `server/discover` answers every
 * 2026-07-28 client with them (one mode's 3 MB of aliases made each answer 3 MB).
 */
const USE_CASES = 10;
const USE_CASE_CHARS = 200;

/** The capability key of server variants, in both sides' `experimental`. */
export const VARIANTS_EXTENSION = 'io.modelcontextprotocol/server-variants';
/** The per-request `_meta` key that selects a variant. */
export const VARIANT_META = 'io.modelcontextprotocol/server-variant';
/** The `_meta` key of `server/discover` lazytools read hints under before the reference keys (still read). */
const VARIANT_HINTS_META = 'io.modelcontextprotocol/server-variant-hints';

/**
 * The hints a request's `_meta` gives to rank variants by: its client capabilities'
 * `experimental[VARIANTS_EXTENSION].variantHints.hints`, else the earlier `VARIANT_HINTS_META`.
 */
export function variantHintsOf(meta: unknown): unknown {
  if (typeof meta !== 'object' || meta === null) return undefined;
  const capabilities = (meta as Record<string, unknown>)[CLIENT_CAPABILITIES_META_KEY] as { experimental?: Record<string, { variantHints?: { hints?: unknown } }> } | undefined;
  return capabilities?.experimental?.[VARIANTS_EXTENSION]?.variantHints?.hints ?? (meta as Record<string, unknown>)[VARIANT_HINTS_META];
}

/** One advertised variant: a mode (a type, not an interface: it goes into `experimental`, JSON values only). */
export type ServerVariant = {
  id: string;
  description: string;
  hints: { useCase: string[]; readOnly: boolean };
};

/**
 * The variants advertised in `server/discover` (`availableVariants`): one per offered mode (rc
 * `variants.modes`, the modes a token or `serve --mode` allows), with the mode's description and
 * its aliases as `useCase` hints. Ranked by the client's `useCase` hint (a phrase, matched like
 * focus_mode's intent) when it sent one, else the default mode first, then rc order. `default`
 * is the first.
 */
export function variantsExtension(
  config: Pick<ResolvedConfig, 'modes' | 'variants' | 'defaultMode'>,
  allowed: readonly string[] | undefined,
  hints: unknown,
): { availableVariants: ServerVariant[]; default: string } | undefined {
  if (config.variants === undefined) return undefined;
  const offered = config.variants.filter((name) => modeNamed(config, name) && (allowed === undefined || allowed.includes(name)));
  if (offered.length === 0) return undefined;
  const useCase = typeof hints === 'object' && hints !== null && typeof (hints as { useCase?: unknown }).useCase === 'string' ? (hints as { useCase: string }).useCase.slice(0, 1_000) : undefined;
  const score = new Map<string, number>();
  if (useCase !== undefined) {
    const match = resolveIntent(useCase, offered.map((name) => modeNamed(config, name)).filter((mode) => mode !== undefined), 0);
    if (match.mode !== null) score.set(match.mode, 2);
    for (const alternative of match.alternatives) if (!score.has(alternative.mode)) score.set(alternative.mode, alternative.confidence);
  }
  const rank = (name: string) => score.get(name) ?? (name === config.defaultMode ? 0.001 : 0);
  const ordered = offered.map((name, index) => ({ name, index })).sort((a, b) => rank(b.name) - rank(a.name) || a.index - b.index);
  const variants = ordered.map(({ name }) => {
    const mode = modeNamed(config, name);
    const useCase = mode?.aliases.length ? mode.aliases.slice(0, USE_CASES).map((alias) => clipText(alias, USE_CASE_CHARS)) : [name.replace(/_/g, ' ')];
    return { id: name, description: mode?.description ?? name, hints: { useCase, readOnly: mode?.readOnly ?? false } };
  });
  return { availableVariants: variants, default: variants[0]?.id ?? config.defaultMode };
}
