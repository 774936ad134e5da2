import { afterEach, describe, expect, it } from 'vitest';
import { interpolate, interpolateMap, redactLiteralCredentials } from '../../src/config/env.js';
import { remoteTarget } from '../../src/upstream/auth/target.js';
import { UpstreamError } from '../../src/upstream/error.js';
import { looksSecret, quotedName, shownName, withoutSecretName } from '../../src/config/secrets.js';
import { clearSecrets, containsSecret, forgetSecret, mayHoldSecret, outsideText, redact, redactValue, registerSecret } from '../../src/util/redact.js';

/** Values from ${VAR} are shown as ${VAR}; outside text is cut short. */

afterEach(() => clearSecrets());

describe('redaction', () => {
  it('redacts a message deeply (strings and keys), and returns the same object when there is nothing to redact', () => {
    const clean = { result: { content: [{ type: 'text', text: 'fine' }] } };
    expect(redactValue(clean)).toBe(clean);
    registerSecret('tok-123456', 'TOKEN');
    expect(redactValue(clean)).toBe(clean);
    expect(containsSecret('{"a":"x tok-123456 y"}')).toBe(true);
    expect(containsSecret('{"a":"x"}')).toBe(false);
    const leaky = { error: { code: -32000, message: 'bad tok-123456', data: { key: 'tok-123456', nested: [{ 'tok-123456': 1 }] } }, n: 1234, b: true };
    expect(redactValue(leaky)).toEqual({ error: { code: -32000, message: 'bad ${TOKEN}', data: { key: '${TOKEN}', nested: [{ '${TOKEN}': 1 }] } }, n: 1234, b: true });
    expect(leaky.error.message).toBe('bad tok-123456');
  });

  it('a server\'s own credential is looked for in its messages and in free text, never in another server\'s messages', () => {
    // An authorization server may choose any string as a token: "text" is every content block's type.
    registerSecret('text', 'oauth:evil', 'evil');
    const message = { result: { content: [{ type: 'text', text: 'done' }] } };
    expect(redactValue(message, 'good')).toBe(message);
    // Its own server's messages, and free text, are rewritten (keys too): that server's problem alone.
    const broken = { result: { content: [{ type: '${oauth:evil}', '${oauth:evil}': 'done' }] } };
    expect(redactValue(message)).toEqual(broken);
    expect(redactValue(message, 'evil')).toEqual(broken);
    expect(mayHoldSecret('{"result":{"type":"text"}}', 'good')).toBe(false);
    expect(mayHoldSecret('{"result":{"type":"text"}}', 'evil')).toBe(true);
    expect(redact('log: the token is text')).toBe('log: the token is ${oauth:evil}');
    // A value the rc also holds stays redacted everywhere, and forgetting the credential keeps it.
    registerSecret('shared-9f8e7d', 'oauth:evil', 'evil');
    registerSecret('shared-9f8e7d', 'API_KEY');
    expect(redactValue({ key: 'shared-9f8e7d' }, 'good')).toEqual({ key: '${API_KEY}' });
    forgetSecret('shared-9f8e7d');
    expect(redact('shared-9f8e7d')).toBe('${API_KEY}');
    forgetSecret('text');
    expect(redact('text')).toBe('text');
  });

  it('shows every interpolated value as its ${VAR}, also URL- and JSON-encoded', () => {
    const value = interpolate('https://api.test/?key=${API_KEY}', { API_KEY: 's3cr3t/+value"x' }, 'servers.a.url');
    expect(value).toContain('s3cr3t');
    expect(redact(`fetch ${value} failed`)).toBe('fetch https://api.test/?key=${API_KEY} failed');
    expect(redact(`sent ${encodeURIComponent('s3cr3t/+value"x')}`)).toBe('sent ${API_KEY}');
    expect(redact(JSON.stringify({ echoed: 's3cr3t/+value"x' }))).toBe('{"echoed":"${API_KEY}"}');
  });

  it('a JSON line may hold a secret behind an escape a reader decodes (\\uXXXX, \\/), never behind the escapes JSON.stringify writes', () => {
    const line = (text: string) => `{"result":{"content":[{"type":"text","text":${text}}]},"jsonrpc":"2.0","id":"lt-1"}`;
    expect(mayHoldSecret(line('"a \\u0026 b"'))).toBe(false);
    registerSecret('s3cr&t<k3y>/p4th', 'KEY');
    expect(mayHoldSecret(line('"the key is s3cr&t<k3y>/p4th"'))).toBe(true);
    expect(mayHoldSecret(line('"the key is s3cr\\u0026t\\u003ck3y\\u003e/p4th"'))).toBe(true);
    expect(mayHoldSecret(line('"the key is s3cr&t<k3y>\\/p4th"'))).toBe(true);
    expect(mayHoldSecret(line('"plain text\\nwith \\"quotes\\" and \\\\ backslashes"'))).toBe(false);
    // What the parsed path makes of an escaped line: the reader's text, redacted.
    expect(redactValue(JSON.parse(line('"the key is s3cr\\u0026t\\u003ck3y\\u003e\\/p4th"')))).toEqual(JSON.parse(line('"the key is ${KEY}"')));
  });

  it('a credential written literally in a server\'s headers or env is shown as its key path, its scheme\'s credential alone too; other values stay', () => {
    // Only `${VAR}` values were registered: a server echoing its request headers printed the rc's Authorization value.
    const headers = { Authorization: 'Bearer lit-bearer-5e2d9a', 'X-API-Key': 'lit-apikey-77c1f0', Accept: 'application/json', 'X-Env': 'production' };
    redactLiteralCredentials('servers.wiki', { headers });
    expect(interpolateMap(headers, {}, 'servers.wiki.headers').Authorization).toBe('Bearer lit-bearer-5e2d9a');
    expect(redact('got Bearer lit-bearer-5e2d9a, lit-bearer-5e2d9a and lit-apikey-77c1f0')).toBe('got ${servers.wiki.headers.Authorization}, ${servers.wiki.headers.Authorization} and ${servers.wiki.headers.X-API-Key}');
    // A value that names no credential and does not look like one is the server's ordinary text.
    expect(redact('accepts application/json in production')).toBe('accepts application/json in production');
    const random = 'Zr8Qm2vL0xT5nW9kB3yH7cJ4pF6dS1aG';
    redactLiteralCredentials('servers.gh', { env: { GITHUB_TOKEN: 'ghp_lit0123456789abcdef0123456789abcdef', CONFIG: random, LOG_LEVEL: 'debug', MEMORY_FILE: '/home/me/memory.jsonl' } });
    expect(redact(`ghp_lit0123456789abcdef0123456789abcdef ${random} debug /home/me/memory.jsonl`)).toBe('${servers.gh.env.GITHUB_TOKEN} ${servers.gh.env.CONFIG} debug /home/me/memory.jsonl');
    // A `${VAR}` keeps its own name.
    redactLiteralCredentials('servers.wiki', { headers: { Authorization: 'Bearer ${WIKI_TOKEN}' } });
    interpolateMap({ Authorization: 'Bearer ${WIKI_TOKEN}' }, { WIKI_TOKEN: 'from-env-0a9b8c' }, 'servers.wiki.headers');
    expect(redact('Bearer from-env-0a9b8c')).toBe('Bearer ${WIKI_TOKEN}');
  });

  it('an upstream error describes a server name that looks like a token, as config errors do; other names are quoted', () => {
    const name = 'ghp_0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f';
    const error = new UpstreamError(name, `could not start upstream "${name}": servers.${name}.command failed`);
    expect(error.message).not.toContain(name.slice(4));
    expect(error.message).toBe(`could not start upstream "<a ${name.length}-character name that looks like a secret, not shown>": servers.<a ${name.length}-character name that looks like a secret, not shown>.command failed`);
    expect(error.server).toBe(name);
    expect(new UpstreamError('notes', 'could not start upstream "notes"').message).toBe('could not start upstream "notes"');
  });

  it('describes only token-shaped names: a known prefix before words (hf_hub, sk-learn, npm_tools) is an ordinary name', () => {
    // `hf_hub` was described as "<a 6-character name that looks like a secret>" in every error and log line.
    for (const name of ['hf_hub', 'hf_hub_tools', 'sk-learn', 'npm_tools', 'ASIA_pacific_news', 'ghp_secret', 'xoxb-bot']) {
      expect(shownName(name), name).toBe(name);
      expect(quotedName(name), name).toBe(`"${name}"`);
      expect(withoutSecretName(`upstream "${name}" failed`, name)).toBe(`upstream "${name}" failed`);
    }
    expect(new UpstreamError('hf_hub', 'could not start upstream "hf_hub"').message).toBe('could not start upstream "hf_hub"');
    const tokens = ['ghp_0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f', 'hf_aBcDeFgHiJkLmNoPqRsTuVwXyZ01234567', 'AKIAIOSFODNN7EXAMPLE', 'sk-proj-4f9a1c7e0b2d', 'xoxb-123456789012-1234567890123-AbCdEf', 'Zr8Qm2vL0xT5nW9kB3yH7cJ4pF6dS1aG'];
    for (const name of tokens) {
      expect(shownName(name), name).toBe(`<a ${name.length}-character name that looks like a secret, not shown>`);
      expect(withoutSecretName(`upstream "${name}" failed`, name)).not.toContain(name);
    }
    // As values (an env value, an argument), prefixed ones stay secrets: only names are read this way.
    expect(looksSecret('hf_hub_tools')).toBe(true);
  });

  it('leaves short values and defaults alone', () => {
    interpolate('${PORT}/${MODE:-fast}', { PORT: '80' }, 'x');
    expect(redact('port 80, mode fast')).toBe('port 80, mode fast');
  });

  it('a ${VAR:-default} shows its variable\'s value as ${VAR}, and a credential given as its default too; a plain default stays', () => {
    // A token written as the default of a variable nobody set reached the model and the logs as written.
    const token = 'ghp_d3fault0123456789abcdef0123456789ab';
    expect(interpolate(`\${LT_UNSET_GH_TOKEN:-${token}}`, {}, 'servers.gh.env.GITHUB_TOKEN')).toBe(token);
    expect(redact(`bad credentials: ${token}`)).toBe('bad credentials: ${LT_UNSET_GH_TOKEN}');
    // Under a credential's key (or variable name), a credential-shaped default.
    interpolateMap({ 'X-Api-Key': '${LT_UNSET_WIKI:-wiki-d3f-4a5b6c}', Authorization: 'Bearer ${LT_UNSET_API_TOKEN:-t0k-d3f-7e8f9a}' }, {}, 'servers.wiki.headers');
    expect(redact('wiki-d3f-4a5b6c and Bearer t0k-d3f-7e8f9a')).toBe('${LT_UNSET_WIKI} and Bearer ${LT_UNSET_API_TOKEN}');
    // The variable's value, when set, as before.
    interpolate('${LT_SET_KEY:-unused-default-1}', { LT_SET_KEY: 'from-env-d3f-112233' }, 'servers.a.env.KEY');
    expect(redact('from-env-d3f-112233')).toBe('${LT_SET_KEY}');
    // Defaults that are no credential stay readable (a level, a path, a URL, a port).
    interpolateMap({ LOG_LEVEL: '${LT_UNSET_LEVEL:-verbose}', ROOT: '${LT_UNSET_ROOT:-/srv/notes}', API_URL: '${LT_UNSET_URL:-https://api.example.test/v1}', PORT: '${LT_UNSET_PORT:-8080}' }, {}, 'servers.a.env');
    expect(redact('verbose /srv/notes https://api.example.test/v1 8080')).toBe('verbose /srv/notes https://api.example.test/v1 8080');
  });

  it('cuts outside text to its limit, saying how much was left out', () => {
    const text = outsideText('e'.repeat(1200), 500);
    expect(text).toHaveLength(500 + '… (700 more characters)'.length);
    expect(text.endsWith('… (700 more characters)')).toBe(true);
  });

  it('writes outside text\'s control characters as escapes: an upstream cannot send a terminal sequence', () => {
    expect(outsideText('boom \u001b[2J\u001b[31mfake prompt$ \rover\u0007\tok\nnext')).toBe('boom \\u001b[2J\\u001b[31mfake prompt$ \\u000dover\\u0007\tok\nnext');
  });
});

describe('credentials written literally in the rc', () => {
  it('are redacted by key path: credential keys with credential-shaped values, token-looking values and secret arguments', () => {
    redactLiteralCredentials('servers.x', {
      env: { GITHUB_TOKEN: 'gh-l1teral-9f8e7d6c', DB_PASSWORD: 'hunter22x', KEY_FORMAT: 'json', SESSION_TIMEOUT: '30000', AUTH_MODE: 'oauth', CACHE: 'sk-live0123456789abcdefghij' },
      headers: { Authorization: 'Bearer t0ken-abcdef12', 'X-Api-Key': '${KEY}', Accept: 'application/json' },
      args: ['--api-key', 'k3y-0123456789', '--token=t0k-9876543210', 'API_KEY=env-k3y-555', '--verbose', 'server.js'],
    });
    expect(redact('gh-l1teral-9f8e7d6c hunter22x sk-live0123456789abcdefghij')).toBe('${servers.x.env.GITHUB_TOKEN} ${servers.x.env.DB_PASSWORD} ${servers.x.env.CACHE}');
    expect(redact('got Bearer t0ken-abcdef12, then t0ken-abcdef12')).toBe('got ${servers.x.headers.Authorization}, then ${servers.x.headers.Authorization}');
    expect(redact('k3y-0123456789 t0k-9876543210 env-k3y-555')).toBe('${servers.x.args[1]} ${servers.x.args[2]} ${servers.x.args[3]}');
    // Plain words, numbers, a ${VAR} (registered when read) and a media type stay as written.
    const plain = 'json oauth 30000 ${KEY} application/json --verbose server.js';
    expect(redact(plain)).toBe(plain);
  });

  it("a bridge's bearer flag (supergateway --oauth2Bearer X) and a header argument with its flag (--header=Authorization: Bearer X)", () => {
    redactLiteralCredentials('servers.s', { args: ['supergateway', '--sse', 'https://mcp.example.test/sse', '--oauth2Bearer', 'dev-t0ken-4417', '--header=Authorization: Bearer eq-t0ken-8812', '--header=Accept: application/json'] });
    expect(redact('sent dev-t0ken-4417 and eq-t0ken-8812')).toBe('sent ${servers.s.args[4]} and ${servers.s.args[5]}');
    expect(redact('Accept: application/json')).toBe('Accept: application/json');
  });

  it('what a server may quote of one alone: a header argument\'s token (mcp-remote --header), a URL\'s password, a cookie\'s value, a token word in a longer value', () => {
    const random = 'Zr8Qm2vL0xT5nW9kB3yH7cJ4pF6dS1aG';
    redactLiteralCredentials('servers.r', {
      env: { DATABASE_URL: 'postgres://app:pw-s3cret-77x@db.internal/app', EXTRA_FLAGS: `--fast --key ${random}`, CACHE_URL: 'redis://cache:admin@cache.internal:6379' },
      headers: { Cookie: 'sid=c00kie-v4lue-123; theme=dark', 'X-Session-Mode': 'strict' },
      args: ['mcp-remote', 'https://mcp.example.test/mcp', '--header', 'Authorization: Bearer hdr-t0ken-abc123', '--header', 'X-Api-Key:k3y-hdr-0099x', '--header', 'Accept: application/json'],
    });
    expect(redact('hdr-t0ken-abc123 k3y-hdr-0099x')).toBe('${servers.r.args[3]} ${servers.r.args[5]}');
    expect(redact('password authentication failed: pw-s3cret-77x')).toBe('password authentication failed: ${servers.r.env.DATABASE_URL}');
    expect(redact(`cookie c00kie-v4lue-123, key ${random}`)).toBe('cookie ${servers.r.headers.Cookie}, key ${servers.r.env.EXTRA_FLAGS}');
    // What reads as no credential stays: the cookie's theme, the header names, a media type, a plain mode.
    const plain = 'theme=dark Authorization: Bearer Accept: application/json strict --fast --key mcp-remote admin';
    expect(redact(plain)).toBe(plain);
  });
});

describe('a password written literally in the rc as words', () => {
  // A passphrase is words: "correcthorsebattery" under DB_PASSWORD passed the credential-shape
  // test (no plain words, which keeps a KEY_FORMAT of json readable) and was shown as written when
  // the server echoed it, in the start failure, focus_mode's status and /readyz (fails before).
  it('under a key that ends in a password or secret word, a value of eight characters or more is redacted whatever its shape', () => {
    redactLiteralCredentials('servers.p', {
      env: { DB_PASSWORD: 'correcthorsebattery', API_SECRET: 'tangerine-wallaby', SECRET_BACKEND: 'aws-secrets-manager', PASSWORD_MIN: '12345678', ADMIN_PASS: 'short' },
      args: ['--password=plainwordpass', '--client-secret', 'Sunshine.Meadow', '--secret-file', '/run/secrets/app'],
    });
    expect(redact('correcthorsebattery tangerine-wallaby plainwordpass Sunshine.Meadow')).toBe('${servers.p.env.DB_PASSWORD} ${servers.p.env.API_SECRET} ${servers.p.args[0]} ${servers.p.args[2]}');
    // A key that only starts with one (a backend's name), a number, a short value and a path stay.
    const plain = 'aws-secrets-manager 12345678 short /run/secrets/app';
    expect(redact(plain)).toBe(plain);
  });
});

describe('a credential two servers share', () => {
  it("one key in two servers' URLs (a host's key, in the path or the query) is redacted in both servers' messages", () => {
    const key = 'sk-sh4red0Key9c4e2b7a1d';
    remoteTarget('github', { url: `https://mcp.example.test/${key}/github/mcp?api_key=q-sh4red-77c1f0aa` }, {}, undefined);
    remoteTarget('slack', { url: `https://mcp.example.test/${key}/slack/mcp?api_key=q-sh4red-77c1f0aa` }, {}, undefined);
    for (const server of ['github', 'slack']) {
      const echoed = redactValue({ text: `connected to /${key}/${server}/mcp?api_key=q-sh4red-77c1f0aa` }, server);
      expect(JSON.stringify(echoed), server).not.toContain(key);
      expect(JSON.stringify(echoed), server).not.toContain('q-sh4red-77c1f0aa');
    }
    // A third server's messages are its own: a value it happens to hold stays (a scoped credential).
    expect(redactValue({ text: key }, 'notes')).toEqual({ text: key });
    // Each server's messages name that server's own key, never the other server (which a token's
    // session may not reach); free text names neither.
    expect(redactValue({ text: `/${key}/` }, 'slack')).toEqual({ text: '/${servers.slack.url path}/' });
    expect(redactValue({ text: `/${key}/` }, 'github')).toEqual({ text: '/${servers.github.url path}/' });
    expect(redact(`bad key ${key}`)).toBe('bad key ${shared credential}');
  });

  it('a key in the URL of a server named like a token is shown without that name, in the path as in the query', () => {
    const name = 'ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
    const key = 'sk-p4th0Key9c4e2b7a1d55';
    remoteTarget(name, { url: `https://mcp.example.test/${key}/mcp?api_key=q-qu3ry-77c1f0aa` }, {}, undefined);
    const described = `<a ${name.length}-character name that looks like a secret, not shown>`;
    expect(redactValue({ text: `/${key}/ q-qu3ry-77c1f0aa` }, name)).toEqual({ text: `/\${servers.${described}.url path}/ \${servers.${described}.url api_key}` });
  });

  it("a shared credential shows each server's own placeholder, and one server forgetting it keeps it hidden for the other", () => {
    registerSecret('tok-shared-5d6e7f', 'oauth:a', 'a');
    registerSecret('tok-shared-5d6e7f', 'oauth:b', 'b');
    expect(redactValue({ t: 'tok-shared-5d6e7f' }, 'a')).toEqual({ t: '${oauth:a}' });
    expect(redactValue({ t: 'tok-shared-5d6e7f' }, 'b')).toEqual({ t: '${oauth:b}' });
    expect(redact('log: tok-shared-5d6e7f')).toBe('log: ${shared credential}');
    // Server a's token was renewed: a no longer holds it, b still does.
    forgetSecret('tok-shared-5d6e7f', 'a');
    expect(redactValue({ t: 'tok-shared-5d6e7f' }, 'b')).toEqual({ t: '${oauth:b}' });
    expect(redactValue({ t: 'tok-shared-5d6e7f' }, 'a')).toEqual({ t: 'tok-shared-5d6e7f' });
    expect(redact('log: tok-shared-5d6e7f')).toBe('log: ${oauth:b}');
    forgetSecret('tok-shared-5d6e7f', 'b');
    expect(redact('tok-shared-5d6e7f')).toBe('tok-shared-5d6e7f');
  });

  it('an OAuth token two servers were given is redacted in both their messages, not in a third', () => {
    registerSecret('tok-shared-0a1b2c', 'oauth:a', 'a');
    registerSecret('tok-shared-0a1b2c', 'oauth:b', 'b');
    expect(redactValue({ t: 'tok-shared-0a1b2c' }, 'a')).toEqual({ t: '${oauth:a}' });
    expect(redactValue({ t: 'tok-shared-0a1b2c' }, 'b')).not.toEqual({ t: 'tok-shared-0a1b2c' });
    expect(redactValue({ t: 'tok-shared-0a1b2c' }, 'c')).toEqual({ t: 'tok-shared-0a1b2c' });
    forgetSecret('tok-shared-0a1b2c');
    expect(redact('tok-shared-0a1b2c')).toBe('tok-shared-0a1b2c');
  });

  it("one server's renewal forgets a shared token for that server only: the other, still sending it, keeps it redacted", () => {
    // Two rc entries of one URL share a sign-in: both sessions registered its token.
    registerSecret('tok-shared-9z8y7x', 'oauth:a', 'a');
    registerSecret('tok-shared-9z8y7x', 'oauth:b', 'b');
    forgetSecret('tok-shared-9z8y7x', 'a');
    expect(redactValue({ t: 'Bearer tok-shared-9z8y7x' }, 'b')).toEqual({ t: 'Bearer ${oauth:b}' });
    expect(redact('log: tok-shared-9z8y7x')).toBe('log: ${oauth:b}');
    expect(redactValue({ t: 'tok-shared-9z8y7x' }, 'a')).toEqual({ t: 'tok-shared-9z8y7x' });
    forgetSecret('tok-shared-9z8y7x', 'b');
    expect(redact('tok-shared-9z8y7x')).toBe('tok-shared-9z8y7x');
  });
});
