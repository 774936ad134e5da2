import type { ServerConfig } from './schema.js';

/**
 * Environment a server needs from the user's shell that an rc cannot hold: a cluster's config, a
 * cloud's credentials chain, a corporate proxy. lazytools gives upstreams a safe environment
 * (the SDK's short list, not the user's whole shell), so such servers lose the cluster or the
 * network behind it unless the variables are passed through (rc `envPassthrough`).
 */
const NEEDS: ReadonlyArray<{ words: RegExp; names: string[]; what: string }> = [
  { words: /kube|k8s|kubectl|helm|openshift|\boc\b/i, names: ['KUBECONFIG'], what: 'your Kubernetes cluster' },
  { words: /\baws\b|amazon|bedrock|\bs3\b|dynamodb|cloudwatch|lambda/i, names: ['AWS_*'], what: 'your AWS credentials and profile' },
  { words: /gcloud|\bgcp\b|google-cloud|bigquery|firebase|vertex/i, names: ['GOOGLE_APPLICATION_CREDENTIALS', 'CLOUDSDK_*'], what: 'your Google Cloud credentials' },
  { words: /azure|\baz\b/i, names: ['AZURE_*'], what: 'your Azure credentials' },
  { words: /docker|podman/i, names: ['DOCKER_HOST', 'DOCKER_CONFIG'], what: 'your container engine' },
  { words: /terraform|pulumi/i, names: ['TF_*', 'PULUMI_*'], what: 'your infrastructure tool\'s settings' },
];

/** Proxy variables: a default for every server when the user's shell sets any of them. */
const PROXY = ['HTTPS_PROXY', 'HTTP_PROXY', 'NO_PROXY'];

/** One server's suggested pass-through: the variables (names or globs) and why. */
export interface PassthroughHint {
  server: string;
  names: string[];
  why: string[];
}

/** The proxy variables the user's shell sets (any letter case): every stdio server needs them. */
export function proxyPassthrough(env: NodeJS.ProcessEnv): string[] {
  return PROXY.filter((name) => Boolean(env[name] || env[name.toLowerCase()]));
}

/**
 * Which servers of an imported rc likely need variables from the user's environment (a cluster,
 * a cloud, a container engine), by the words of their name, command and arguments.
 */
export function passthroughHints(servers: Readonly<Record<string, ServerConfig>>): PassthroughHint[] {
  const out: PassthroughHint[] = [];
  for (const [server, entry] of Object.entries(servers)) {
    const text = [server, entry.command ?? '', ...(entry.args ?? [])].join(' ');
    const names: string[] = [];
    const why: string[] = [];
    for (const need of NEEDS)
      if (need.words.test(text)) {
        names.push(...need.names.filter((name) => !names.includes(name)));
        why.push(need.what);
      }
    if (names.length > 0) out.push({ server, names, why });
  }
  return out;
}
