/** `{ servers: { <domain>-<k>: { tools } } }` with `count` tools spread over servers of 100, deterministic. */
export function generateCatalog(count: number): { servers: Record<string, { tools: Array<{ name: string; description?: string; inputSchema: { type: 'object' } }> }> };
