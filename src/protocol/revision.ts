/**
 * The 2026-07-28 revision as lazytools writes it to upstreams, without loading an SDK package (a
 * gateway on the lock starts without the client package).
 */

/** The 2026-07-28 protocol revision: what a connection pinned to that era asks for (the gateway's twin, `lazytools auth`). */
export const MODERN_REVISION = '2026-07-28';

/**
 * Where 2026-07-28 carries a request's log level: in its envelope, not in logging/setLevel. The
 * SDK's LOG_LEVEL_META_KEY (a unit test holds them equal).
 */
export const LOG_LEVEL_META = 'io.modelcontextprotocol/logLevel';
