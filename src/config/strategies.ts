/**
 * How modes reach clients (rc `strategy`, `serve --strategy`): the names alone, without the rc
 * schema, so the CLI reads a flag without loading zod (a start answered early never loads it
 * before it has answered, app/serve.ts).
 */
export const STRATEGIES = ['notify', 'proxy', 'hybrid', 'auto'] as const;

/** One of STRATEGIES. */
export type Strategy = (typeof STRATEGIES)[number];

/** Whether `value` names a strategy. */
export function isStrategy(value: unknown): value is Strategy {
  return (STRATEGIES as readonly unknown[]).includes(value);
}
