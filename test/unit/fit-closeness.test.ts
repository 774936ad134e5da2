import { describe, expect, it } from 'vitest';
import { buildCatalog, type ToolDefinition } from '../../src/catalog/catalog.js';
import { resolveConfig, type ResolvedConfig } from '../../src/config/resolve.js';
import type { RcConfig } from '../../src/config/schema.js';
import { effectiveBudget, fillRoom } from '../../src/focus/budget.js';
import { modeFit } from '../../src/focus/fit.js';
import { modeShows, withinBoundary } from '../../src/focus/policy.js';
import { modeMembers } from '../../src/focus/visible.js';
import { nameWords, serverPrefixes } from '../../src/focus/words.js';

// Budget fitting on invented servers: what a full mode keeps (closeness to its work, breadth over
// servers), how its budget grows with what its groups hold, and calls as evidence of membership.
const tool = (name: string, description: string, extra: Partial<ToolDefinition> = {}): ToolDefinition => ({ name, description, inputSchema: { type: 'object' }, ...extra });
const reads = { annotations: { readOnlyHint: true } };
// One server with a dozen near-identical readers, and three with one action each.
const bulk = Array.from({ length: 12 }, (_, i) => tool(`list_payment_report_${String.fromCharCode(97 + i)}`, `List payment report ${i} of the billing ledger`, reads));
const sources = [
  { server: 'ledgerly', tools: bulk },
  { server: 'acmepay', tools: [tool('refund_charge', 'Refund a charge to the card it was paid with')] },
  { server: 'deskly', tools: [tool('reply_to_ticket', 'Reply to a support ticket of a customer')] },
  { server: 'shopping', tools: [tool('cancel_order', 'Cancel an order of the store')] },
];

function fitted(rc: RcConfig, mode: string, config?: ResolvedConfig) {
  const resolved = config ?? resolveConfig(rc);
  const { catalog } = buildCatalog(sources, resolved);
  const fit = modeFit(catalog, resolved, mode);
  if (!fit) throw new Error(`no mode ${mode}`);
  return { fit, catalog, config: resolved };
}

describe('a full mode keeps what its work needs, spread over servers', () => {
  it('shows each server\'s action before a twelfth reader of one server', () => {
    // A budget with room for lazytools' own tools, the three actions and two of the readers.
    const probe = fitted({}, 'customer_support').fit;
    const cost = (id: string) => probe.members.find((t) => t.id === id)?.tokens ?? 0;
    const room = probe.ownTokens + cost('acmepay:refund_charge') + cost('deskly:reply_to_ticket') + cost('shopping:cancel_order') + 2 * cost('ledgerly:list_payment_report_a');
    const { fit } = fitted({ modes: { customer_support: { budget: room } } }, 'customer_support');
    for (const id of ['acmepay:refund_charge', 'deskly:reply_to_ticket', 'shopping:cancel_order']) expect(fit.shownIds.has(id), id).toBe(true);
    const shownBulk = fit.shown.filter((t) => t.server === 'ledgerly').length;
    expect(shownBulk).toBeGreaterThan(0);
    expect(shownBulk).toBeLessThan(12);
  });

  it('ranks a tool named after the mode\'s work first, and says so', () => {
    const { fit } = fitted({}, 'customer_support');
    const refund = fit.ranked.find((entry) => entry.tool.id === 'acmepay:refund_charge');
    expect(refund?.why.join('; ')).toContain('close to the mode\'s work ("refund"');
    // The same tool where the mode's description and tasks say nothing of refunds.
    const plain = fitted({ modes: { customer_support: { description: 'Help customers', tasks: [] } } }, 'customer_support').fit;
    expect(plain.ranked.find((entry) => entry.tool.id === 'acmepay:refund_charge')?.why.join('; ')).not.toContain('close to');
  });
});

describe('a budget that grows with what the mode holds', () => {
  it('grows to the members\' cost, between budget and maxBudget, within 14.5% of the catalog', () => {
    const mode = { budget: 1000, maxBudget: 1500 };
    expect(effectiveBudget(mode, 900)).toBe(1000);
    expect(effectiveBudget(mode, 1250)).toBe(1250);
    expect(effectiveBudget(mode, 100_000)).toBe(1500);
    expect(effectiveBudget(mode, 100_000, 8000)).toBe(1160);
    expect(effectiveBudget(mode, 100_000, 4000)).toBe(1000);
    expect(effectiveBudget({ budget: 1000, maxBudget: undefined }, 100_000)).toBe(1000);
    expect(effectiveBudget({ budget: undefined, maxBudget: 1500 }, 100_000)).toBeUndefined();
  });

  it('is the budget status reports and fitting spends', () => {
    const { fit: grown, catalog } = fitted({ modes: { customer_support: { budget: 50, maxBudget: 100_000, fill: false } } }, 'customer_support');
    const members = grown.members.reduce((sum, t) => sum + t.tokens, 0);
    // A share of what the servers' own definitions cost (status's reduction base), not of the compacted list.
    expect(members).toBeGreaterThan(50);
    expect(grown.budget).toBe(Math.min(members, Math.floor(catalog.totalTokens * 0.145)));
    expect(fitted({ modes: { customer_support: { budget: 50 } } }, 'customer_support').fit.budget).toBe(50);
  });

  it('lets tools outside its groups fill a tenth of a small catalog, when it grows and shrinks with the catalog', () => {
    const mode = { budget: 6000, maxBudget: 27_000 };
    // 14.5% of 34,000 tokens is under the budget: a small catalog.
    expect(fillRoom(mode, 34_000)).toBe(3400);
    expect(fillRoom(mode, 50_000)).toBe(Number.POSITIVE_INFINITY);
    // A budget the rc fixed (no maxBudget) is the rc's to spend.
    expect(fillRoom({ budget: 6000, maxBudget: undefined }, 34_000)).toBe(Number.POSITIVE_INFINITY);
  });

  it('is a share of the definitions as the servers list them, which compaction does not shrink', () => {
    // Long descriptions: the listed (compact) definitions cost far less than the servers' own.
    const essay = Array.from({ length: 40 }, (_, i) => `Paragraph ${i} of a long manual about refunds, disputes and the card networks.`).join('\n\n');
    const verbose = [{ server: 'ledgerly', tools: bulk.map((t) => ({ ...t, description: `${t.description}.\n\n${essay}` })) }];
    const config = resolveConfig({ modes: { analytics: { budget: 50, maxBudget: 1_000_000, fill: false } } });
    const { catalog } = buildCatalog(verbose, config);
    const listed = catalog.tools.reduce((sum, t) => sum + t.tokens, 0);
    expect(catalog.totalTokens).toBeGreaterThan(3 * listed);
    const fit = modeFit(catalog, config, 'analytics');
    const members = fit?.members.reduce((sum, t) => sum + t.tokens, 0) ?? 0;
    expect(fit?.budget).toBe(Math.min(members, Math.floor(0.145 * catalog.totalTokens)));
    expect(fit?.budget).toBeGreaterThan(Math.floor(0.145 * listed));
  });
});

describe('calls in a mode are evidence it needs the tool', () => {
  const base = resolveConfig({ auth: { tokens: { support: { sha256: 'a'.repeat(64), modes: ['customer_support'] } } } });
  const used = (mode: string, id: string, weight: number): ResolvedConfig => ({ ...base, usageWeights: new Map([[mode, new Map([[id, weight]])]]) });

  it('makes a tool its groups leave out a member, ranked and explained', () => {
    const config = used('sales', 'acmepay:refund_charge', 2);
    const { fit, catalog } = fitted({}, 'sales', config);
    expect(fit.memberIds.has('acmepay:refund_charge')).toBe(true);
    expect(fit.ranked.find((entry) => entry.tool.id === 'acmepay:refund_charge')?.why[0]).toBe('in the mode by use: called in it lately, though none of its groups holds it');
    expect(modeMembers(catalog, config, { mode: 'sales', enabled: [], disabled: [], discovered: [] }).map((t) => t.id)).toContain('acmepay:refund_charge');
    // Once: not yet (a decayed count under one call today; without fill, whose typical tasks may find it).
    const once = used('sales', 'acmepay:refund_charge', 0.5);
    const sales = once.modes.sales;
    if (!sales) throw new Error('no preset sales');
    expect(fitted({}, 'sales', { ...once, modes: { ...once.modes, sales: { ...sales, fill: false } } }).fit.memberIds.has('acmepay:refund_charge')).toBe(false);
  });

  it('never lets a writer into a read-only mode, nor widens a bearer token\'s boundary', () => {
    const { fit } = fitted({}, 'security_review', used('security_review', 'acmepay:refund_charge', 5));
    expect(fit.memberIds.has('acmepay:refund_charge')).toBe(false);
    const config = used('customer_support', 'dealflow:none', 5);
    const { catalog } = fitted({}, 'customer_support', config);
    const refund = catalog.byId.get('acmepay:refund_charge');
    if (!refund) throw new Error('no tool');
    const boundary = { modes: ['sales'], token: true };
    const salesConfig = used('sales', 'acmepay:refund_charge', 5);
    expect(modeShows(salesConfig, salesConfig.modes.sales!, refund)).toBe(false);
    expect(withinBoundary(salesConfig, boundary, refund)).toBe(false);
  });
});

describe('name words', () => {
  it('drop the prefix most of a server\'s tools share, a shortened server name and versions', () => {
    const tools = ['shop_orders_list', 'shop_orders_get', 'shop_products_list', 'shop_coupons_create', 'health'].map((name) => ({ name, server: 'shopping' }));
    const prefixes = serverPrefixes(tools);
    expect([...(prefixes.get('shopping') ?? [])]).toEqual(['shop']);
    expect(nameWords({ name: 'shop_orders_list', server: 'x' }, prefixes.get('shopping'))).toEqual(['orders', 'list']);
    expect(nameWords({ name: 'woo_orders_list', server: 'woocommerce' })).toEqual(['orders', 'list']);
    expect(nameWords({ name: 'AcmeApiV2010--CreateCall', server: 'acme' })).toEqual(['create', 'call']);
    // Three tools are too few to tell a prefix from a shared verb-less word.
    expect(serverPrefixes(tools.slice(0, 3)).size).toBe(0);
  });
});

describe('fill: a mode ranks tools close to its work that its groups leave out', () => {
  const rota = [{ server: 'rotaplan', tools: [tool('schedule_shift', 'Schedule a staff shift on the rota')] }];
  const staffing = (extra: Record<string, unknown>): RcConfig => ({ modes: { staffing: { description: 'Staff rotas: schedule and swap shifts', tasks: ['schedule a shift for Ana on Friday'], groups: [], budget: 5000, fill: true, ...extra } } });
  const fill = (rc: RcConfig) => {
    const config = resolveConfig(rc);
    const { catalog } = buildCatalog([...sources, ...rota], config);
    const fit = modeFit(catalog, config, 'staffing');
    if (!fit) throw new Error('no mode staffing');
    return { fit, members: modeMembers(catalog, config, { mode: 'staffing', enabled: [], disabled: [], discovered: [] }).map((t) => t.id) };
  };

  it('shows them after its own, says why, and counts them in the mode', () => {
    const { fit, members } = fill(staffing({}));
    expect(fit.filledIds.has('rotaplan:schedule_shift')).toBe(true);
    expect(fit.shownIds.has('rotaplan:schedule_shift')).toBe(true);
    expect(fit.ranked.find((entry) => entry.tool.id === 'rotaplan:schedule_shift')?.why.join('; ')).toContain('outside its groups');
    expect(members).toContain('rotaplan:schedule_shift');
    expect(fit.filledIds.has('acmepay:refund_charge')).toBe(false);
  });

  it('leaves them out without fill, in a read-only mode when they write, and when they win no room', () => {
    expect(fill(staffing({ fill: false })).fit.memberIds.has('rotaplan:schedule_shift')).toBe(false);
    // A mode whose budget scales with the catalog (maxBudget): this one's tenth is less than lazytools' own tools.
    expect(fill(staffing({ maxBudget: 10_000 })).fit.memberIds.has('rotaplan:schedule_shift')).toBe(false);
    expect(fill(staffing({ readOnly: true })).fit.memberIds.has('rotaplan:schedule_shift')).toBe(false);
    const tight = fill(staffing({ budget: 1 }));
    expect(tight.fit.memberIds.has('rotaplan:schedule_shift')).toBe(false);
    expect(tight.members).not.toContain('rotaplan:schedule_shift');
  });
});
