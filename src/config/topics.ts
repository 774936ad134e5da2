/**
 * The vocabulary placement scores tools with: one entry per topic (what kind of work a tool
 * serves), as weighted word stems. Words are general (what browsers, trackers or databases are
 * about), never one server's tool names, so placement carries over to servers nobody listed.
 *
 * Weights: 3 = the word alone says the topic ("kubectl", "mermaid"), 2 = strong, 1 = supporting,
 * 0.5 = weak. `products` are names of products whose presence in the server name, tool name or
 * description is strong evidence (weight 3). `fields` are input schema property name stems.
 */
export interface TopicSpec {
  /** What the topic covers, shown in explanations. */
  description: string;
  /** "stem:weight" entries separated by spaces; a stem without weight counts 1; a trailing `^` counts it only in server and tool names. */
  words: string;
  /** Phrases matched on whole words in the name, title and description: "phrase:weight" by "|". */
  phrases?: string;
  /** Product names (weight 3); a trailing `^` marks one that is also a common word, counted only in server and tool names. */
  products?: string;
  fields?: string;
  /** Topics that take precedence: when one of them is placed, this topic is dropped. */
  yieldsTo?: string[];
  /** Topics that win a tie: when one of them is placed and scores at least as high, this topic is dropped. */
  losesTo?: string[];
  /** Topics that must be placed too (e.g. "assigned to me" only counts for a tracker tool). */
  requires?: string[];
}

export const TOPICS: Readonly<Record<string, TopicSpec>> = {
  browser: {
    description: 'browser and mobile UI automation: pages, screens, clicks, screenshots, console',
    words: 'browser:3 mobile:2 emulator:2.5 simulator:2.5 tap:2 swipe:2.5 screen:1 device:0.5 orientation:1.5 android:2 ios:2 adb:3 appium:3 click:2 screenshot:2 navigate:2 tab:1 selector:1.5 dom:2 hover:2 drag:1 viewport:2 scroll:2 keyboard:1.5 mouse:2 locator:2 webpage:1.5 page:0.5 element:1 console:1 evaluate:0.5 iframe:2 cookie:1 headless:2 lighthouse:2 frontend:0.5 emulate:2 dialog:1',
    phrases: 'web page:1|key press:1.5|network request:1.5|file upload:0.5|accessibility snapshot:2|fill form:1.5|fill out:1',
    products: 'playwright puppeteer selenium chrome chromium devtools webdriver browserbase stagehand firefox webkit cdp',
    fields: 'selector:2 element:1.5 ref:1 url:0.5 tab:1 button:1.5 coordinate:1.5 key:0.5',
    yieldsTo: ['wiki', 'diagrams'],
  },
  web: {
    description: 'web search and fetching pages or URLs',
    words: 'web:2 internet:2 crawl:2.5 crawler:2.5 scrape:2.5 scraper:2.5 fetch:1 url:0.5 website:2 online:1 html:0.5 serp:3 webpage:1.5 http:0.5',
    phrases: 'web search:2|search the web:2|search engine:2|search results:1',
    products: 'brave tavily exa bing duckduckgo serper serpapi perplexity firecrawl jina searxng kagi google_search brightdata apify',
    fields: 'url:1 urls:1',
    yieldsTo: ['browser', 'docs', 'git', 'observability'],
  },
  docs: {
    description: 'library, framework and API documentation',
    words: 'documentation:3 docs:3 doc:1.5 library:1.5 librarie:1.5 framework:1 sdk:1 readme:1.5 changelog:1 guide:0.5 reference:0.5 tutorial:1 snippet:0.5',
    phrases: 'api reference:2|code example:1|up to date:1|library id:2',
    products: 'context7 deepwiki devdocs mdn readthedocs mintlify',
    yieldsTo: ['diagrams'],
    fields: 'librari:1.5 library:1.5 topic:0.5',
  },
  git: {
    description: 'local git: status, diff, log, branches, commits',
    words: 'git:2 commit:2 branch:2 diff:1 blame:2 stash:3 rebase:3 checkout:2 merge:1 tag:0.5 worktree:3 cherry:2 reset:1 staged:2 unstaged:2 stage:0.5 remote:1 reflog:3 clone:1.5 push:1',
    phrases: 'working tree:2|version control:2|commit history:2',
    fields: 'branch:1 commit:1 sha:1',
    yieldsTo: ['hosting'],
    losesTo: ['files'],
  },
  changes: {
    description: 'reading what changed in a repository: diffs, logs, blame, commit history',
    words: 'diff:2 blame:2.5 log:1 history:2 commit:1 changelog:2 change:1 show:1 status:1 staged:1 review:1',
    requires: ['git'],
  },
  ci_results: {
    description: 'CI results: build and job logs, test results, failures, pipeline status',
    words: 'log:1.5 test:1 failure:2 failed:1 failing:1 flaky:1.5 result:1.5 status:1 error:1',
    requires: ['ci'],
  },
  shell: {
    description: 'terminal and shell: commands and processes',
    words: 'shell:3 terminal:3 command:2 exec:2 execute:1 bash:3 zsh:3 powershell:3 process:1.5 pid:2 kill:1.5 stdin:2 stdout:2 cli:1 interactive:0.5 script:1 run:0.5',
    phrases: 'run a command:2|execute a command:2|command line:2',
        fields: 'command:2 cmd:2 cwd:1 pid:1.5 args:0.5 shell:1',
  },
  packages: {
    description: 'package registries: packages, versions, dependencies',
    words: 'npm:3 pypi:3 package:2 registry:1.5 maven:3 crate:2 cargo:2 dependency:1.5 dependencie:1.5 semver:2 gem:2 nuget:3 pip:2 ecosystem:1 version:0.5 license:0.5 download:0.5 deprecated:0.5',
    phrases: 'package manager:2|latest version:1.5',
    products: 'npm pypi maven nuget rubygems crates packagist jsr',
    fields: 'package:2 ecosystem:1.5 version:0.5',
    yieldsTo: ['tracker', 'security'],
  },
  security: {
    description: 'vulnerabilities, advisories, secret and code scanning',
    words: 'vulnerability:3 vulnerabilitie:3 vulnerable:3 cve:3 ghsa:3 advisory:3 advisorie:3 cwe:3 cvss:3 exploit:2 sast:3 dast:3 malware:3 security:2.5 audit:0.75 sbom:3 owasp:3 xss:2 injection:1 threat:1.5 scan:1 scanner:1 leak:1.5 leaked:2 secret:0.5',
    phrases: 'secret scanning:3|code scanning:3|security advisory:3|security issue:2|leaked credential:3|hardcoded secret:3',
    products: 'osv snyk dependabot codeql semgrep trivy grype socket',
    fields: 'cve:2 ghsa:2 vulnerability:1.5 severity:1',
  },
  databases: {
    description: 'databases: SQL and NoSQL queries, tables, schemas',
    words: 'database:3 db:2 sql:3 query:1 table:1.5 schema:1 row:0.5 column:0.5 migration:1.5 collection:1 index:0.5 record:0.5 transaction:1 cypher:2',
    phrases: 'read only query:1|select statement:2',
    products: 'postgres postgresql mysql mariadb sqlite mongo mongodb redis supabase bigquery snowflake clickhouse neo4j dynamodb cassandra elasticsearch duckdb oracle mssql cockroachdb planetscale neon airtable pinecone qdrant',
    fields: 'sql:2 table:1.5 database:1.5 collection:1 schema:0.5 query:0.5',
    yieldsTo: ['wiki', 'observability'],
  },
  containers: {
    description: 'containers, clusters and cloud resources',
    words: 'docker:3 container:3 kubernetes:3 k8s:3 kubectl:3 pod:3 helm:3 cluster:2 namespace:1.5 deployment:1.5 podman:3 compose:1 volume:1 image:0.5 ingress:2 replica:2 statefulset:3 daemonset:3 configmap:3 cronjob:2 node:0.5 cloud:0.5 aws:2 gcp:2 azure:2 lambda:1 ec2:2 terraform:2 dyno:2 deploy:1.5 serverless:1.5 instance:1 vm:1.5 bucket:1',
    products: 'docker kubernetes podman heroku vercel netlify cloudflare railway^ render^ fly^ openshift argocd aws gcloud azure',
    yieldsTo: ['diagrams'],
    phrases: 'port forward:2',
    fields: 'namespace:1.5 container:2 pod:2 image:1 cluster:1 context:0.5',
  },
  observability: {
    description: 'observability and errors: logs, metrics, traces, alerts, incidents',
    words: 'log:1.5 logging:1 metric:2.5 trace:2.5 tracing:2.5 span:1.5 error:1 exception:2 stacktrace:2 alert:2 incident:2 monitor:2.5 monitoring:2.5 dashboard:1.5 observability:3 telemetry:3 crash:2 latency:1.5 apm:3 uptime:2 promql:3 logql:3 slo:2 oncall:2 silence:2 event:0.5 profiling:1.5 breadcrumb:2 regression:0.5 performance:0.5',
    phrases: 'on call:1.5|root cause:1.5|error rate:2|stack trace:2|time series:1.5',
    products: 'sentry datadog grafana prometheus loki tempo honeycomb newrelic dynatrace opentelemetry otel splunk pagerduty alertmanager opsgenie bugsnag rollbar kibana jaeger',
    fields: 'metric:1.5 trace:1.5 query:0 span:1',
    yieldsTo: ['git', 'ci', 'shell', 'browser', 'security'],
  },
  messaging: {
    description: 'messaging: chat channels, direct messages, email',
    words: 'slack:3 discord:3 email:3 mail:2.5 inbox:2 message:2 channel:2 thread:1 dm:2 chat:1.5 reply:1 reaction:2 emoji:1.5 smtp:3 imap:3 telegram:3 whatsapp:3 mattermost:3 mailbox:3 draft:1 recipient:2 attachment:1 unread:2',
    phrases: 'direct message:2',
    products: 'slack discord gmail outlook telegram whatsapp mattermost zulip resend sendgrid mailgun',
    fields: 'channel:2 recipient:2 to:0.5 subject:1 thread:1 message:1',
    yieldsTo: ['browser', 'observability', 'tracker', 'hosting'],
  },
  calendar: {
    description: 'calendars: events, meetings, availability',
    words: 'calendar:3 meeting:2.5 schedule:1.5 availability:2 freebusy:3 attendee:2 invite:1 agenda:2 appointment:2 event:0.5 reminder:1 rsvp:3 caldav:3 busy:1',
    phrases: 'free busy:3',
    products: 'calendly caldav',
    fields: 'calendar:2 attendee:1.5 start:0.5 end:0.5',
    yieldsTo: ['observability'],
  },
  wiki: {
    description: 'wikis and knowledge bases: pages, notes, documents',
    words: 'wiki:3 notion:3 confluence:3 note:1.5 vault:1.5 page:0.5 block:0.5 space:0.5 document:1 article:1 knowledge:1.5 obsidian:3 frontmatter:2 markdown:0.5',
    phrases: 'knowledge base:3',
    products: 'notion confluence obsidian coda gitbook outline logseq roam',
    fields: 'page:1 block:1 space:0.5 note:1',
    yieldsTo: ['docs', 'tracker'],
  },
  tracker: {
    description: 'issue trackers and task lists: issues, tickets, tasks, projects, sprints',
    words: 'issue:2 ticket:3 task:2 todo:3 sprint:3 epic:3 backlog:3 milestone:2 assignee:2 kanban:3 subtask:3 story:1 cycle:1 project:1 board:1 bug:1 priority:1.5 label:1 comment:0.5 due:1 workflow:0.5 estimate:1.5 status:0.5',
    phrases: 'to do:2|issue tracker:3|work item:3',
    products: 'linear^ jira asana todoist trello clickup youtrack monday^ shortcut^ basecamp wrike',
    fields: 'issue:2 assignee:1.5 priority:1 team:0.5 project:0.5 task:1.5 label:0.5 due:1',
    yieldsTo: ['observability', 'security'],
    losesTo: ['ci'],
  },
  assigned: {
    description: 'what is assigned to you: your issues, tasks and reviews',
    words: 'my^:3 mine^:3 assigned:2 today:2 overdue:2 due:0.5 task:0.75 todoist^:1.5 ticktick^:1.5',
    phrases: 'assigned to me:3|assigned to you:3|assigned to the current user:3|current user:1|authenticated user:1|your issue:2|your task:2',
    fields: 'assignee:0.5',
    requires: ['tracker'],
  },
  diagrams: {
    description: 'diagrams and charts',
    words: 'diagram:3 mermaid:3 chart:0.5 flowchart:3 plantuml:3 uml:3 visualization:0.5 visualize:0.5 plot:1.5 svg:1 graph:0.5 sequence:0.5',
    phrases: 'mind map:3|flow chart:3|sequence diagram:3',
    products: 'mermaid drawio excalidraw plantuml',
  },
  reasoning: {
    description: 'structured thinking: step-by-step reasoning, plans, reflection',
    words: 'thinking:3 thought:3 reasoning:3 reflect:2 reflection:2 brainstorm:2 hypothesis:1.5 think:2',
    phrases: 'step by step:2|problem solving:2|chain of thought:3',
  },
  memory: {
    description: 'memory: knowledge graph, entities, facts kept across sessions',
    words: 'memory:3 memorie:3 remember:3 recall:2 entity:2 entitie:2 relation:1.5 observation:2 forget:2 persist:1',
    phrases: 'knowledge graph:3|long term:1',
    fields: 'entity:1.5 entitie:1.5 relation:1 observation:1.5',
    yieldsTo: ['tracker', 'observability'],
  },
  time: {
    description: 'current time, dates and time zones',
    words: 'time:2 timezone:3 clock:2 date:1 datetime:2 utc:2 timestamp:1.5 duration:1 week:0.5 day:0.5',
    phrases: 'time zone:3|current time:3|current date:3',
    fields: 'timezone:2 time:1',
    yieldsTo: ['browser', 'observability'],
  },
  hosting: {
    description: 'hosted repositories (GitHub, GitLab, Bitbucket): repository files, pull and merge requests',
    words: 'github:3 gitlab:3 bitbucket:3 repository:1.5 repo:1.5 fork:1.5 gist:2 owner:0.5',
    phrases: 'pull request:3|merge request:3',
    fields: 'owner:1 repo:2 repository:1.5 project_id:0.5',
  },
  files: {
    description: 'local files and directories',
    words: 'file:2 directory:2.5 directorie:2.5 folder:2 path:1 filesystem:3 glob:1.5 pdf:0.5 excel:0.5 spreadsheet:0.5 csv:0.5 disk:1',
    phrases: 'file system:3|local file:2',
    fields: 'path:1 file:1 directory:1 folder:1',
    yieldsTo: ['hosting', 'diagrams', 'security', 'git', 'ci', 'tracker'],
  },
  ci: {
    description: 'CI: pipelines, builds, jobs, test results',
    words: 'ci:3 pipeline:2.5 build:1.5 job:1 artifact:1.5 flaky:2 workflow:1 runner:1',
    phrases: 'test result:2|continuous integration:3|build log:2|gitlab ci:3|test run:2.5|spec file:1.5|test performance:2',
    products: 'circleci jenkins buildkite travis teamcity',
    losesTo: ['tracker'],
  },
  flags: {
    description: 'feature flags and rollout configuration',
    words: 'flag:1.5 rollout:2 experiment:1.5 variation:1.5 targeting:2',
    phrases: 'feature flag:3|ai config:2',
    products: 'launchdarkly unleash flagsmith growthbook statsig optimizely',
  },
  code_tools: {
    description: 'code analysis: lint, format, symbols, definitions, references',
    words: 'lint:3 linter:3 eslint:3 prettier:3 format:0.5 symbol:2.5 definition:1.5 refactor:2.5 typecheck:3 compile:1.5 diagnostic:1.5 lsp:3 ast:1.5 codebase:1.5 code:0.5',
    phrases: 'language server:3|type check:3|find references:2|go to definition:3|source code:1',
  },
};

/** Verbs that change something: a tool named or described with one writes. */
export const WRITE_VERBS: ReadonlySet<string> = new Set(
  ('create add update edit delete remove send post run exec execute write merge push insert drop set put patch upload move rename ' +
    'close reopen assign unassign archive unarchive publish deploy install uninstall start stop restart kill click type fill navigate ' +
    'submit approve reject dismiss mark star unstar fork transfer apply rollback scale trigger cancel rerun retry invite ' +
    'schedule reschedule book reply react pin unpin mute unmute enable disable toggle save store import sync clear reset revert ' +
    'commit checkout stash rebase tag init clone pull truncate alter grant revoke modify change replace upsert ' +
    'drag press hover select upload evaluate emulate resize handle terminate spawn launch open invoke call generate render ' +
    'lock unlock link unlink follow unfollow subscribe unsubscribe watch unwatch complete uncomplete forget remember memorize ' +
    'register deregister attach detach mount unmount build compose prune tap exec_command').split(' '),
);

/** Verbs that only read: a tool named with one of these and none of WRITE_VERBS reads. */
export const READ_VERBS: ReadonlySet<string> = new Set(
  ('get list search find read fetch show view describe inspect lookup look check count status info query retrieve browse explain ' +
    'diff log logs history summarize summary analyze lint validate compare resolve_library preview download export stat stats ' +
    'whoami me my ping echo health inspect tail grep glob top print display peek scan audit detect score convert calculate compute').split(' '),
);

/**
 * Words that make a tool about the server itself (its health, login, rate limits, feedback), not
 * about any topic: a tool named with one of these is placed in no topic.
 */
export const META_NAME_WORDS: ReadonlySet<string> = new Set(
  'health healthcheck ping feedback logout login oauth ratelimit'.split(' '),
);

/** Name phrases with the same effect (words joined by single spaces). */
export const META_NAME_PHRASES: readonly string[] = ['rate limit', 'server status', 'usage stats', 'authentication sessions', 'manage accounts'];
