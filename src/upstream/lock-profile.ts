import type { PriorDiscovery } from '@modelcontextprotocol/client';
import type { ServerProfile } from '../catalog/types.js';
import type { UpstreamPrimitives } from './primitives.js';

// The lock profile of an upstream: what a lock records of a server besides its tools, and how a
// gateway on the lock takes it back before the server starts. The era verdict is kept one way, as
// the SDK's PriorDiscovery (what the next connection starts from); the lock spells it
// `protocol: { era, discover? }`.

/** What an upstream knows of its server that a lock records. */
export interface ProfileState {
  discovery: PriorDiscovery | undefined;
  capabilities: Record<string, unknown> | undefined;
  instructions: string | undefined;
  primitives: UpstreamPrimitives;
}

/** What a lock records of this server besides its tools (after a start). */
export function profileOf(state: ProfileState): ServerProfile {
  const discovery = state.discovery;
  return {
    protocol: discovery?.kind === 'modern' ? { era: 'modern', discover: discovery.discover as unknown as Record<string, unknown> } : discovery ? { era: 'legacy' } : undefined,
    capabilities: state.capabilities,
    instructions: state.instructions,
    prompts: state.primitives.prompts,
    resources: state.primitives.resources,
    resourceTemplates: state.primitives.templates,
  };
}

/** A lock's profile as the state of a server not started yet (the era verdict only when recorded). */
export function stateOf(profile: ServerProfile): Omit<ProfileState, 'discovery'> & { discovery?: PriorDiscovery } {
  const protocol = profile.protocol;
  return {
    capabilities: profile.capabilities,
    instructions: profile.instructions,
    primitives: { prompts: profile.prompts ?? [], resources: profile.resources ?? [], templates: profile.resourceTemplates ?? [] },
    ...(protocol ? { discovery: protocol.era === 'modern' ? { kind: 'modern', discover: protocol.discover as never } : { kind: 'legacy' } } : {}),
  };
}
