import { describe, expect, it } from 'vitest';
import { buildCatalog, type ToolDefinition } from '../../src/catalog/catalog.js';
import { placementReport } from '../../src/catalog/explain.js';
import { resolveConfig } from '../../src/config/resolve.js';

// Placement of servers nobody listed: invented servers and tools (no fixture's names), placed by
// the general words of their names, descriptions and fields into the modes whose work they serve.
const tool = (name: string, description: string, extra: Partial<ToolDefinition> = {}): ToolDefinition => ({ name, description, inputSchema: { type: 'object' }, ...extra });
const reads = { annotations: { readOnlyHint: true } };

const sources = [
  { server: 'acmepay', tools: [tool('refund_charge', 'Refund a charge to the card it was paid with'), tool('list_disputes', 'List disputes customers opened on payments', reads)] },
  { server: 'dealflow', tools: [tool('create_deal', 'Create a deal at a stage of the sales pipeline'), tool('find_contacts', 'Find contacts of a company', reads)] },
  { server: 'mailblast', tools: [tool('schedule_campaign', 'Schedule an email campaign to an audience of subscribers')] },
  { server: 'numbers', tools: [tool('run_funnel', 'Conversion funnel of product events, by cohort', reads)] },
  { server: 'skyhost', tools: [tool('create_bucket', 'Create a storage bucket in a cloud region'), tool('upsert_dns_record', 'Create or update a DNS record of a zone')] },
  { server: 'inkwell', tools: [tool('publish_post', 'Publish a blog post draft'), tool('translate_entry', 'Translate a CMS entry into another locale')] },
  { server: 'pagerly', tools: [tool('acknowledge_incident', 'Acknowledge an incident so the on-call escalation stops')] },
  { server: 'gatekeeper', tools: [tool('list_role_assignments', 'Who has which role and permission in the workspace', reads), tool('get_audit_log', 'Audit log of sign-ins and permission changes', reads)] },
  { server: 'deskly', tools: [tool('reply_to_ticket', 'Reply to a support ticket of a customer')] },
  { server: 'clipstream', tools: [tool('search_videos', 'Search videos and their comments by keyword', reads), tool('upload_reel', 'Upload a short video reel for your followers')] },
  { server: 'weatherly', tools: [tool('get_forecast', 'Weather forecast for a city', reads)] },
  { server: 'wayfinder', tools: [tool('get_directions', 'Driving directions between two addresses', reads)] },
  { server: 'tickertape', tools: [tool('get_quote', 'Latest stock quote and market cap of a ticker', reads)] },
  { server: 'apiary', tools: [tool('weigh_hive', 'Weight of a beehive over the season', reads)] },
];

describe('placement of servers nobody listed, by what their tools say', () => {
  const config = resolveConfig({});
  const { catalog } = buildCatalog(sources, config);
  const report = placementReport(catalog, config);
  const modes = (id: string) => report.tools.find((t) => t.id === id)?.modes ?? [];

  it.each([
    ['acmepay:refund_charge', 'customer_support'],
    ['acmepay:list_disputes', 'customer_support'],
    ['dealflow:create_deal', 'sales'],
    ['dealflow:find_contacts', 'sales'],
    ['mailblast:schedule_campaign', 'communications'],
    ['numbers:run_funnel', 'analytics'],
    ['skyhost:create_bucket', 'infrastructure'],
    ['skyhost:upsert_dns_record', 'infrastructure'],
    ['inkwell:publish_post', 'content'],
    ['inkwell:translate_entry', 'content'],
    ['pagerly:acknowledge_incident', 'operations'],
    ['gatekeeper:list_role_assignments', 'security_review'],
    ['gatekeeper:get_audit_log', 'security_review'],
    ['deskly:reply_to_ticket', 'customer_support'],
    ['clipstream:search_videos', 'research'],
    ['clipstream:upload_reel', 'content'],
    ['weatherly:get_forecast', 'research'],
    ['wayfinder:get_directions', 'research'],
    ['tickertape:get_quote', 'research'],
    ['tickertape:get_quote', 'analytics'],
  ])('%s lands in %s', (id, mode) => {
    expect(modes(id)).toContain(mode);
  });

  it('gives the readers of a business to read-only analytics, never its writers', () => {
    expect(modes('acmepay:list_disputes')).toContain('analytics');
    expect(modes('acmepay:refund_charge')).not.toContain('analytics');
  });

  it('leaves a tool no mode\'s work fits in "all" only, and says which modes came closest and why', () => {
    const hive = report.tools.find((t) => t.id === 'apiary:weigh_hive');
    expect(hive?.modes).toEqual([]);
    expect(report.unplaced).toEqual(['apiary:weigh_hive']);
    const near = buildCatalog([{ server: 'x', tools: [tool('summarize', 'Summarize the numbers', { ...reads, inputSchema: { type: 'object', properties: { amount: {} } } })] }], config).catalog;
    const closest = placementReport(near, config).tools[0];
    // An "amount" field alone is weak evidence of payments work: below the threshold, named as the closest.
    expect(closest?.modes).toEqual([]);
    expect(closest?.closestModes?.[0]).toMatch(/^(customer_support|analytics) \(topic payments [\d.]+ of 2.5: field "amount"\)$/);
  });

  it('says a tool named for its server itself (login, health) is no mode\'s work', () => {
    const about = buildCatalog([{ server: 'x', tools: [tool('service_health', 'Health of this server')] }], config).catalog;
    expect(placementReport(about, config).tools[0]).toMatchObject({ modes: [], closestModes: [], aboutServer: true });
  });

  it('tells feedback about the server from feedback that is work, by what the description says it is about', () => {
    const feedback = buildCatalog(
      [
        { server: 'shopfront', tools: [tool('respond_to_feedback', 'Respond to feedback a buyer left on an order'), tool('send_feedback', 'Send feedback about the Shopfront MCP tools to their developers')] },
        { server: 'pulse-store', tools: [tool('store_health', 'Health of the Pulse Store connection')] },
      ],
      config,
    ).catalog;
    const placed = placementReport(feedback, config).tools;
    const of = (id: string) => placed.find((t) => t.id === id);
    expect(of('shopfront:respond_to_feedback')?.modes).toContain('customer_support');
    expect(of('shopfront:respond_to_feedback')?.aboutServer).toBeUndefined();
    expect(of('shopfront:send_feedback')).toMatchObject({ modes: [], aboutServer: true });
    expect(of('pulse-store:store_health')).toMatchObject({ modes: [], aboutServer: true });
  });
});
