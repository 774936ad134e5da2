import type { Server } from '@modelcontextprotocol/server';
import type { Caller, CallerFront } from './caller.js';
import type { Offered } from './capabilities.js';
import { registerCompletion } from './completion.js';
import { registerGroups } from './groups.js';
import { registerPrompts } from './prompts.js';
import { registerResources } from './resources.js';
import { registerTools } from './tools.js';

/**
 * Every primitive on a front server, for either era: tools (focus_mode and the meta-tools among
 * them), groups, resources, and prompts and completions when an upstream offers them. Each is
 * registered by its own module, once for both eras; a 2025 session adds logging (logging.ts).
 */
export function registerPrimitives<C extends Caller>(server: Server, front: CallerFront<C>, offered: Pick<Offered, 'prompts' | 'completions'>): void {
  registerTools(server, front);
  registerGroups(server, front);
  registerResources(server, front);
  if (offered.prompts) registerPrompts(server, front);
  if (offered.completions) registerCompletion(server, front);
}
