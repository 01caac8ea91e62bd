/**
 * `npm run taproot -- <command>`: operator commands against the same database as `npm start`.
 *
 *   DATABASE_URL set   -> that server.
 *   otherwise          -> the embedded PostgreSQL under DATA_DIR: if `npm start` is running on it
 *                         (a live postmaster.pid in <DATA_DIR>/postgres that accepts a connection),
 *                         the CLI connects to it; else it starts the embedded server on that data
 *                         directory, migrates, does the work and stops it cleanly.
 *
 * Results go to stdout (one JSON object with `--json`); progress and errors go to stderr.
 * Exit codes: 0 done, 1 failed, 2 bad usage or configuration.
 */
import 'reflect-metadata';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import type { DataSource, EntityManager } from 'typeorm';
import { ALL_MIGRATIONS } from '@taproot/api';
import { signingKeysOf } from '@taproot/auth-server';
import { ConfigError, loadConfig, systemClock, type TaprootConfig } from '@taproot/config';
import {
  createClientCredentialsApplication,
  createOrganization,
  issueScimToken,
  loadApplicationForUpdate,
  oauthApplicationSchema,
  organizationExists,
  OperatorUsers,
  organizationRateLimits,
  parseApplicationScope,
  revokeApplication,
  SCIM_BASE_PATH,
  setOrganizationRateLimits,
  type ApplicationActor,
  type ApplicationResult,
  type RateLimitChange,
} from '@taproot/identity';
import { isUuid, JsonApiError, listDocument, type CollectionDocument } from '@taproot/json-api';
import { appendToOutbox, KafkaDeadLetters, topicOf, type DeadLetter } from '@taproot/messaging';
import { createDataSource, runMigrations, startEmbeddedPostgres } from '@taproot/persistence';

const USAGE = `Usage: npm run --silent taproot -- <command> [options]

Commands:
  org create --name <name> [--owner-email <email>] [--json]
      Creates an organization with its owner user and a global API key. Prints the
      organization id and the key (shown only once). --json prints exactly one JSON object
      {"organization_id": "...", "api_key": "..."} on stdout.
  org limits --org <organization-id> [--reads <n>|default] [--writes <n>|default] [--json]
      Shows an organization's rate limits (requests per API key per minute) and, with --reads
      or --writes, sets them first; "default" returns to the deployment's
      RATE_LIMIT_READS_PER_MINUTE / RATE_LIMIT_WRITES_PER_MINUTE. --json prints one JSON object
      {"organization_id", "reads_per_minute", "writes_per_minute", "reads_default", "writes_default"}.
  app create --org <organization-id> --name <name> --grant client_credentials --scope "<scopes>" [--json]
      Creates a client-credentials OAuth application of the organization and its service user.
      Prints the client id and the client secret (shown only once). --json prints exactly one
      JSON object {"client_id", "client_secret", "organization_id", "name", "scope",
      "service_user_id"}. The scopes are space separated (docs/oauth.md), e.g.
      "ir.incidents:read oc.alerts:write".
  app list --org <organization-id> [--json]
      Lists the organization's OAuth applications (never their secrets). --json prints one
      JSON object {"organization_id", "applications": [...]}.
  app revoke --org <organization-id> --client-id <client-id> [--json]
      Revokes an application: the auth server refuses its client from now on, its tokens and
      grants are deleted, and its service user loses every permission.
  user add --org <organization-id> --email <email> [--name <name>] [--role <role>] [--json]
      Adds a person to the organization. --role names one of its incident response roles (id,
      slug or name, e.g. admin or "No Access"); the default is the User role, the everyday
      responder's. The on-call role follows (owner and admin: on-call Admin; others: the same
      kind; custom roles: on-call User). --json prints one JSON object {"user_id", "organization_id",
      "email", "name", "role"}. An e-mail already in the organization fails (exit 1).
  user list --org <organization-id> [--json]
      Lists the organization's users. --json prints one JSON object {"organization_id", "users":
      [{"user_id", "email", "name", "role"}]}.
  user remove --org <organization-id> (--user <user-id>|--email <email>) [--json]
      Removes a user: their API keys go with them and they leave their teams. The organization's
      last owner cannot be removed. --json prints one JSON object {"user_id", "organization_id", "email"}.
  scim token --org <organization-id> [--json]
      Issues the organization's SCIM bearer token for an identity provider (README, "SCIM
      provisioning"), shown only once; the previous token stops working. --json prints one JSON
      object {"organization_id", "scim_token", "base_path"}.
  keys rotate [--json]
      Adds a new OAuth signing key and retires the current ones: the auth app signs with the new
      key from its next start, and the retired keys stay in its JWKS until every token they signed
      has expired (docs/oauth.md, Keys). --json prints one JSON object: {"kid": ...}.
  dlq list [--all] [--json]
      Lists the events the Kafka consumers parked in the dead-letter topics (<topic>.dlq): only
      events that failed the same way on every try (a malformed payload, a bug) are parked; an
      unreachable database or broker is retried until it returns. Shows the pending ones (not yet
      replayed), --all every one. --json prints one JSON object {"dead_letters": [...]}.
  dlq replay [--topic <source-topic>] [--json]
      Once the cause is fixed: sends every pending parked event back to its source topic (of
      --topic only, e.g. taproot.incidents) and marks it replayed. Every consumer group of that
      topic receives it again and skips it if its inbox already holds it, so only the group that
      parked it applies it (inbox rows are kept INBOX_RETENTION_HOURS: replayed later than that
      after its first delivery, every group applies it again). --json prints one JSON object
      {"replayed": [...]}.
      Both need KAFKA_BROKERS: the in-process bus parks nothing (a failing consumer keeps its
      events in the outbox and is retried).
  help, --help
      Shows this text.

The database is the one \`npm start\` uses: DATABASE_URL if set, otherwise the embedded
PostgreSQL under DATA_DIR (default .data), whether or not \`npm start\` is running.
`;

class UsageError extends Error {}

const progress = (message: string) => process.stderr.write(`taproot: ${message}\n`);

interface OrgCreate {
  command: 'org create';
  name: string;
  ownerEmail: string;
  json: boolean;
}
interface OrgLimits {
  command: 'org limits';
  organizationId: string;
  change: RateLimitChange;
  json: boolean;
}
interface AppCreate {
  command: 'app create';
  organizationId: string;
  name: string;
  scope: string;
  json: boolean;
}
interface AppList {
  command: 'app list';
  organizationId: string;
  json: boolean;
}
interface AppRevoke {
  command: 'app revoke';
  organizationId: string;
  clientId: string;
  json: boolean;
}
interface UserAdd {
  command: 'user add';
  organizationId: string;
  email: string;
  name: string | null;
  role: string | null;
  json: boolean;
}
interface UserList {
  command: 'user list';
  organizationId: string;
  json: boolean;
}
interface UserRemove {
  command: 'user remove';
  organizationId: string;
  user: { id: string } | { email: string };
  json: boolean;
}
interface ScimToken {
  command: 'scim token';
  organizationId: string;
  json: boolean;
}
interface KeysRotate {
  command: 'keys rotate';
  json: boolean;
}
interface DlqList {
  command: 'dlq list';
  all: boolean;
  json: boolean;
}
interface DlqReplay {
  command: 'dlq replay';
  sourceTopic: string | undefined;
  json: boolean;
}
type DatabaseCommand = OrgCreate | OrgLimits | AppCreate | AppList | AppRevoke | UserAdd | UserList | UserRemove | ScimToken | KeysRotate;
type Command = DatabaseCommand | DlqList | DlqReplay | { command: 'help' };

/** The options each command takes besides the boolean `--json`, by group and sub-command. */
const OPTIONS: Record<string, Record<string, readonly string[]>> = {
  org: { create: ['name', 'owner-email'], limits: ['org', 'reads', 'writes'] },
  app: { create: ['org', 'name', 'grant', 'scope'], list: ['org'], revoke: ['org', 'client-id'] },
  user: { add: ['org', 'email', 'name', 'role'], list: ['org'], remove: ['org', 'user', 'email'] },
  scim: { token: ['org'] },
  keys: { rotate: [] },
  dlq: { list: ['all'], replay: ['topic'] },
};

/** Boolean flags, by command: they take no value. */
const SWITCHES = ['json', 'all'];

/** Parses `--flag value`, `--flag=value` and the boolean switches; anything unknown is a usage error. */
function parseFlags(rest: string[], allowed: readonly string[]): Record<string, string | true> {
  const flags: Record<string, string | true> = {};
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    const m = /^--([a-z-]+)(?:=(.*))?$/s.exec(arg);
    if (!m) throw new UsageError(`unexpected argument "${arg}"`);
    const [, flag, inline] = m;
    if (SWITCHES.includes(flag) && (flag === 'json' || allowed.includes(flag))) {
      if (inline !== undefined) throw new UsageError(`--${flag} takes no value`);
      flags[flag] = true;
    } else if (allowed.includes(flag)) {
      const value = inline ?? rest[++i];
      if (value === undefined || (inline === undefined && value.startsWith('--'))) throw new UsageError(`--${flag} needs a value`);
      flags[flag] = value;
    } else {
      throw new UsageError(`unknown option --${flag}`);
    }
  }
  return flags;
}

/** `--reads 600` sets a limit, `--reads default` clears it, no flag keeps it. */
function limitFlag(flags: Record<string, string | true>, flag: 'reads' | 'writes'): number | null | undefined {
  const value = flags[flag];
  if (typeof value !== 'string') return undefined;
  if (value === 'default') return null;
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 10_000_000) {
    throw new UsageError(`--${flag} must be a whole number from 1 to 10000000 or "default", got "${value}"`);
  }
  return Number(value);
}

function parseArgs(argv: string[]): Command {
  if (argv.length === 0) throw new UsageError('no command given');
  if (argv[0] === 'help' || argv.includes('--help') || argv.includes('-h')) return { command: 'help' };
  const [group, action, ...rest] = argv;
  const actions = Object.hasOwn(OPTIONS, group) ? OPTIONS[group] : undefined;
  if (!actions) throw new UsageError(`unknown command "${group}"`);
  if (!action) throw new UsageError(`${group} needs a sub-command (${Object.keys(actions).join(', ')})`);
  const allowed = Object.hasOwn(actions, action) ? actions[action] : undefined;
  if (!allowed) throw new UsageError(`unknown command "${group} ${action}"`);
  const flags = parseFlags(rest, allowed);
  const json = flags.json === true;
  if (group === 'app') return parseAppArgs(action, flags, json);
  if (group === 'user') return parseUserArgs(action, flags, json);
  if (group === 'scim') return { command: 'scim token', organizationId: requiredOrg(flags, 'scim token'), json };
  if (group === 'keys') return { command: 'keys rotate', json };
  if (group === 'dlq') {
    if (action === 'list') return { command: 'dlq list', all: flags.all === true, json };
    const topic = typeof flags.topic === 'string' ? flags.topic.trim() : undefined;
    if (topic === '') throw new UsageError('--topic needs a topic name, e.g. taproot.incidents');
    return { command: 'dlq replay', sourceTopic: topic, json };
  }
  if (action === 'limits') {
    const organizationId = typeof flags.org === 'string' ? flags.org.trim() : '';
    if (!organizationId) throw new UsageError('org limits needs --org <organization-id>');
    const change: RateLimitChange = {};
    const reads = limitFlag(flags, 'reads');
    const writes = limitFlag(flags, 'writes');
    if (reads !== undefined) change.readsPerMinute = reads;
    if (writes !== undefined) change.writesPerMinute = writes;
    return { command: 'org limits', organizationId, change, json };
  }
  const name = typeof flags.name === 'string' ? flags.name.trim() : '';
  if (!name) throw new UsageError('org create needs --name <name>');
  if (name.length > 255) throw new UsageError('--name must be at most 255 characters');
  const ownerEmail = emailFlag(flags, 'owner-email') ?? 'owner@taproot.local';
  return { command: 'org create', name, ownerEmail, json };
}

/** An e-mail option's value, checked; undefined when not given. */
function emailFlag(flags: Record<string, string | true>, flag: string): string | undefined {
  if (typeof flags[flag] !== 'string') return undefined;
  const email = (flags[flag] as string).trim();
  if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw new UsageError(`--${flag} must be an email address, got "${email}"`);
  return email;
}

function requiredOrg(flags: Record<string, string | true>, command: string): string {
  const organizationId = typeof flags.org === 'string' ? flags.org.trim() : '';
  if (!organizationId) throw new UsageError(`${command} needs --org <organization-id>`);
  return organizationId;
}

/** `user <action>`: every one names the organization; remove names the user by id or e-mail, not both. */
function parseUserArgs(action: string, flags: Record<string, string | true>, json: boolean): UserAdd | UserList | UserRemove {
  const organizationId = requiredOrg(flags, `user ${action}`);
  if (action === 'list') return { command: 'user list', organizationId, json };
  const email = emailFlag(flags, 'email');
  if (action === 'remove') {
    const id = typeof flags.user === 'string' ? flags.user.trim() : undefined;
    if ((id === undefined) === (email === undefined)) throw new UsageError('user remove needs exactly one of --user <user-id> or --email <email>');
    if (id !== undefined && !/^[0-9]{1,9}$/.test(id)) throw new UsageError(`--user must be a user id (a whole number), got "${id}"`);
    return { command: 'user remove', organizationId, user: id !== undefined ? { id } : { email: email! }, json };
  }
  if (email === undefined) throw new UsageError('user add needs --email <email>');
  const text = (flag: string) => (typeof flags[flag] === 'string' ? (flags[flag] as string).trim() : null);
  const name = text('name');
  if (name !== null && (name === '' || name.length > 255)) throw new UsageError('--name must be 1 to 255 characters');
  const role = text('role');
  if (role === '') throw new UsageError('--role needs a role name, slug or id, e.g. --role admin');
  return { command: 'user add', organizationId, email, name, role, json };
}

/** `app <action>`: every one names the organization; create validates the scope as the admin API does. */
function parseAppArgs(action: string, flags: Record<string, string | true>, json: boolean): AppCreate | AppList | AppRevoke {
  const text = (flag: string) => (typeof flags[flag] === 'string' ? (flags[flag] as string).trim() : '');
  const organizationId = text('org');
  if (!organizationId) throw new UsageError(`app ${action} needs --org <organization-id>`);
  if (action === 'list') return { command: 'app list', organizationId, json };
  if (action === 'revoke') {
    const clientId = text('client-id');
    if (!clientId) throw new UsageError('app revoke needs --client-id <client-id>');
    return { command: 'app revoke', organizationId, clientId, json };
  }
  const name = text('name');
  if (!name) throw new UsageError('app create needs --name <name>');
  if (name.length > 255) throw new UsageError('--name must be at most 255 characters');
  // Only client-credentials applications are made here; users register the others themselves.
  if (text('grant') !== 'client_credentials') throw new UsageError(`app create needs --grant client_credentials, got "${text('grant')}"`);
  if (!text('scope')) throw new UsageError('app create needs --scope "<scopes>", e.g. --scope "ir.incidents:read"');
  try {
    return { command: 'app create', organizationId, name, scope: parseApplicationScope(text('scope')), json };
  } catch (error) {
    if (error instanceof JsonApiError) throw new UsageError(`--scope: ${error.errors[0]?.detail ?? error.message}`);
    throw error;
  }
}

interface Database {
  dataSource: DataSource;
  close(): Promise<void>;
}

/** The embedded server `npm start` may be running on this data dir: its port when it answers. */
async function runningEmbeddedPort(dir: string, fallbackPort: number): Promise<number | null> {
  const pidFile = join(dir, 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const lines = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]) || fallbackPort;
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'EPERM';
    }
  };
  if (!Number.isInteger(pid) || pid <= 0 || !alive()) return null; // stale file: PostgreSQL replaces it
  // The server may still be starting (or stopping): give it a few seconds to answer.
  const deadline = Date.now() + 15_000;
  for (;;) {
    const client = new Client({ connectionString: embeddedUrl(port, 'postgres'), connectionTimeoutMillis: 2000 });
    try {
      await client.connect();
      await client.end();
      return port;
    } catch (error) {
      await client.end().catch(() => undefined);
      if (!alive()) return null;
      if (Date.now() > deadline) {
        throw new Error(`a PostgreSQL server (pid ${pid}) holds ${dir} but does not answer on 127.0.0.1:${port}: ${String(error)}`);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

// The embedded server's fixed loopback credentials (libs/platform/persistence, embedded-postgres.ts).
const embeddedUrl = (port: number, database = 'taproot') => `postgres://taproot:taproot@127.0.0.1:${port}/${database}`;

async function openDatabase(config: TaprootConfig): Promise<Database> {
  const closers: (() => Promise<void>)[] = [];
  const close = async () => {
    for (const fn of closers.reverse()) await fn().catch((error) => progress(`shutdown step failed: ${String(error)}`));
  };
  try {
    let url = config.databaseUrl;
    if (url) {
      progress('using DATABASE_URL');
    } else {
      const dir = join(config.dataDir, 'postgres');
      const port = await runningEmbeddedPort(dir, config.embeddedPostgresPort);
      if (port !== null) {
        progress(`connecting to the running embedded PostgreSQL on port ${port} (${dir})`);
        url = embeddedUrl(port);
      } else {
        progress(`starting the embedded PostgreSQL on ${dir}`);
        const pg = await startEmbeddedPostgres({
          dir,
          port: config.embeddedPostgresPort,
          log: (line) => (config.logLevel === 'debug' || config.logLevel === 'trace') && progress(`postgres: ${line}`),
        });
        closers.push(async () => {
          await pg.stop();
          progress('embedded PostgreSQL stopped');
        });
        url = pg.url;
      }
    }
    const dataSource = createDataSource({ url, entities: [], migrations: ALL_MIGRATIONS, poolSize: 2, applicationName: 'taproot-cli' });
    await dataSource.initialize();
    closers.push(() => dataSource.destroy());
    const applied = await runMigrations(dataSource);
    if (applied.length > 0) progress(`migrations applied: ${applied.length}`);
    return { dataSource, close };
  } catch (error) {
    await close();
    throw error;
  }
}

async function orgCreate(db: Database, cmd: OrgCreate): Promise<void> {
  const created = await db.dataSource.transaction((m) => createOrganization(m, { name: cmd.name, ownerEmail: cmd.ownerEmail }));
  if (cmd.json) {
    process.stdout.write(`${JSON.stringify({ organization_id: created.organizationId, api_key: created.token })}\n`);
  } else {
    process.stdout.write(
      `Created organization "${cmd.name}" (${created.organizationId}), owner ${cmd.ownerEmail}.\n` +
        `Its API key is shown only once:\n\n    ${created.token}\n\n`,
    );
  }
}

/** Exit 1 with a message for an unknown organization (the id may be malformed: no 22P02 here). */
async function orgLimits(db: Database, cmd: OrgLimits, config: TaprootConfig): Promise<void> {
  const limits =
    Object.keys(cmd.change).length > 0
      ? await setOrganizationRateLimits(db.dataSource.manager, cmd.organizationId, cmd.change)
      : await organizationRateLimits(db.dataSource.manager, cmd.organizationId);
  if (!limits) throw new Error(`no organization with id "${cmd.organizationId}"`);
  const reads = limits.readsPerMinute ?? config.rateLimitReadsPerMinute;
  const writes = limits.writesPerMinute ?? config.rateLimitWritesPerMinute;
  if (cmd.json) {
    const doc = {
      organization_id: cmd.organizationId,
      reads_per_minute: reads,
      writes_per_minute: writes,
      reads_default: limits.readsPerMinute === null,
      writes_default: limits.writesPerMinute === null,
    };
    process.stdout.write(`${JSON.stringify(doc)}\n`);
  } else {
    const origin = (own: number | null) => (own === null ? ' (deployment default)' : '');
    process.stdout.write(
      `Organization ${cmd.organizationId}: ${reads} reads${origin(limits.readsPerMinute)} and ` +
        `${writes} writes${origin(limits.writesPerMinute)} per API key per minute.\n`,
    );
  }
}

/** Changes made here are the operator's: the system acts, and the audit log says so. */
const operator = (organizationId: string): ApplicationActor => ({ organizationId, actor: { kind: 'system', id: null }, userId: null });

/** Exit 1 with a message for an unknown organization (checked as text: a malformed id is unknown too). */
async function assertOrganization(db: Database, organizationId: string): Promise<void> {
  if (!isUuid(organizationId) || !(await organizationExists(db.dataSource.manager, organizationId))) {
    throw new Error(`no organization with id "${organizationId}"`);
  }
}

/** One transaction: the change and its event in the outbox, which the api relays when it runs. */
async function changeApplication(db: Database, organizationId: string, change: (manager: EntityManager, now: Date) => Promise<ApplicationResult>): Promise<ApplicationResult> {
  await assertOrganization(db, organizationId);
  return db.dataSource.transaction(async (manager) => {
    const result = await change(manager, new Date());
    await appendToOutbox(manager, topicOf('identity'), [result.event]);
    return result;
  });
}

const attributesOf = (result: ApplicationResult) => (result.document.data as { attributes: Record<string, unknown> }).attributes;

async function appCreate(db: Database, cmd: AppCreate): Promise<void> {
  const result = await changeApplication(db, cmd.organizationId, (manager, now) =>
    createClientCredentialsApplication(manager, operator(cmd.organizationId), { name: cmd.name, scope: cmd.scope }, now),
  );
  const app = attributesOf(result);
  if (cmd.json) {
    const doc = { client_id: app.client_id, client_secret: result.clientSecret, organization_id: cmd.organizationId, name: app.name, scope: app.scope, service_user_id: app.service_user_id };
    process.stdout.write(`${JSON.stringify(doc)}\n`);
  } else {
    process.stdout.write(
      `Created application "${cmd.name}" with scope "${String(app.scope)}" in organization ${cmd.organizationId}.\n` +
        `client_id:     ${String(app.client_id)}\n` +
        `client_secret: ${String(result.clientSecret)}  (shown only once)\n`,
    );
  }
}

async function appList(db: Database, cmd: AppList, config: TaprootConfig): Promise<void> {
  await assertOrganization(db, cmd.organizationId);
  const applications: Record<string, unknown>[] = [];
  // The admin API's list, page by page (the largest page it serves).
  for (let number: number | null = 1; number !== null; ) {
    const query = { 'page[size]': '100', 'page[number]': String(number) };
    const page: CollectionDocument = await listDocument({ db: db.dataSource, schema: oauthApplicationSchema, query, organizationId: cmd.organizationId, cursorSecret: config.cursorSecret });
    applications.push(...page.data.map((d) => (d as { attributes: Record<string, unknown> }).attributes));
    number = (page.meta as { next_page?: number | null } | undefined)?.next_page ?? null;
  }
  if (cmd.json) {
    process.stdout.write(`${JSON.stringify({ organization_id: cmd.organizationId, applications })}\n`);
    return;
  }
  if (applications.length === 0) process.stdout.write(`Organization ${cmd.organizationId} has no OAuth applications.\n`);
  for (const app of applications) {
    const state = app.revoked_at ? `revoked ${String(app.revoked_at)}` : 'active';
    process.stdout.write(`${String(app.client_id)}  ${String(app.name)}  [${(app.grant_types as string[]).join(', ')}]  "${String(app.scope)}"  ${state}\n`);
  }
}

async function appRevoke(db: Database, cmd: AppRevoke): Promise<void> {
  const result = await changeApplication(db, cmd.organizationId, async (manager, now) =>
    revokeApplication(manager, operator(cmd.organizationId), await loadApplicationForUpdate(manager, cmd.organizationId, cmd.clientId), now),
  );
  const app = attributesOf(result);
  if (cmd.json) process.stdout.write(`${JSON.stringify({ client_id: app.client_id, organization_id: cmd.organizationId, revoked_at: app.revoked_at })}\n`);
  else process.stdout.write(`Revoked application ${String(app.client_id)} ("${String(app.name)}").\n`);
}

async function userAdd(db: Database, cmd: UserAdd): Promise<void> {
  await assertOrganization(db, cmd.organizationId);
  const member = await new OperatorUsers(db.dataSource).add(cmd.organizationId, { email: cmd.email, name: cmd.name, role: cmd.role });
  if (cmd.json) process.stdout.write(`${JSON.stringify({ user_id: member.user_id, organization_id: cmd.organizationId, email: member.email, name: member.name, role: member.role })}\n`);
  else process.stdout.write(`Added user ${member.user_id} (${member.email}) to organization ${cmd.organizationId} with the ${String(member.role)} role.\n`);
}

async function userList(db: Database, cmd: UserList): Promise<void> {
  await assertOrganization(db, cmd.organizationId);
  const users = await new OperatorUsers(db.dataSource).list(cmd.organizationId);
  if (cmd.json) {
    process.stdout.write(`${JSON.stringify({ organization_id: cmd.organizationId, users })}\n`);
    return;
  }
  for (const u of users) process.stdout.write(`${u.user_id}  ${u.email}  ${u.name ?? ''}  [${u.role ?? 'no role'}]\n`);
}

async function userRemove(db: Database, cmd: UserRemove): Promise<void> {
  await assertOrganization(db, cmd.organizationId);
  const user = await new OperatorUsers(db.dataSource).remove(cmd.organizationId, cmd.user);
  const email = String(user.attributes.email);
  if (cmd.json) process.stdout.write(`${JSON.stringify({ user_id: Number(user.id), organization_id: cmd.organizationId, email })}\n`);
  else process.stdout.write(`Removed user ${user.id} (${email}) from organization ${cmd.organizationId}.\n`);
}

async function scimToken(db: Database, cmd: ScimToken): Promise<void> {
  await assertOrganization(db, cmd.organizationId);
  const token = await issueScimToken(db.dataSource, cmd.organizationId);
  if (cmd.json) {
    process.stdout.write(`${JSON.stringify({ organization_id: cmd.organizationId, scim_token: token, base_path: SCIM_BASE_PATH })}\n`);
  } else {
    process.stdout.write(
      `SCIM token of organization ${cmd.organizationId} (shown only once; the previous one no longer works):\n\n    ${token}\n\n` +
        `Point the identity provider at <api base URL>${SCIM_BASE_PATH} with this bearer token.\n`,
    );
  }
}

async function keysRotate(db: Database, cmd: KeysRotate, config: TaprootConfig): Promise<void> {
  const kid = await signingKeysOf({ config, dataSource: db.dataSource, clock: systemClock }).rotate();
  if (cmd.json) process.stdout.write(`${JSON.stringify({ kid })}\n`);
  else process.stdout.write(`New signing key ${kid}: the auth app signs with it from its next start; the previous keys stay published until their tokens expire.\n`);
}

/** What an operator needs of a parked event (its payload stays on the topic). */
const describeLetter = (l: DeadLetter) => ({
  event_id: l.eventId,
  event_type: l.eventType,
  source_topic: l.sourceTopic,
  consumer_group: l.groupId,
  error: l.error,
  dead_letter: `${l.topic}/${l.partition}/${l.offset}`,
  replayed: l.replayed,
});

async function dlq(cmd: DlqList | DlqReplay, config: TaprootConfig): Promise<void> {
  if (!config.kafkaBrokers) {
    progress('KAFKA_BROKERS is not set: the in-process bus parks nothing (a failing consumer keeps its events in the outbox and is retried)');
    process.stdout.write(cmd.json ? `${JSON.stringify(cmd.command === 'dlq list' ? { dead_letters: [] } : { replayed: [] })}\n` : 'No dead-letter topics.\n');
    return;
  }
  const letters = new KafkaDeadLetters({ brokers: config.kafkaBrokers, clientId: `${config.kafkaClientId}-cli` });
  if (cmd.command === 'dlq list') {
    progress(`reading the dead-letter topics on ${config.kafkaBrokers.join(',')}`);
    const shown = (await letters.list()).filter((l) => cmd.all || !l.replayed).map(describeLetter);
    if (cmd.json) process.stdout.write(`${JSON.stringify({ dead_letters: shown })}\n`);
    else if (shown.length === 0) process.stdout.write(cmd.all ? 'No dead letters.\n' : 'No pending dead letters.\n');
    else for (const l of shown) process.stdout.write(`${l.dead_letter}  ${l.event_type} ${l.event_id}  from ${l.source_topic} (${l.consumer_group})${l.replayed ? '  [replayed]' : ''}\n    ${l.error}\n`);
    return;
  }
  progress(`replaying the pending dead letters${cmd.sourceTopic ? ` of ${cmd.sourceTopic}` : ''}`);
  const replayed = (await letters.replay({ sourceTopic: cmd.sourceTopic })).map(describeLetter);
  if (cmd.json) process.stdout.write(`${JSON.stringify({ replayed })}\n`);
  else process.stdout.write(`Replayed ${replayed.length} event(s)${replayed.map((l) => `\n  ${l.event_type} ${l.event_id} -> ${l.source_topic}`).join('')}\n`);
}

async function main(argv: string[]): Promise<number> {
  let cmd: Command;
  let config: TaprootConfig;
  try {
    cmd = parseArgs(argv);
    if (cmd.command === 'help') {
      process.stdout.write(USAGE);
      return 0;
    }
    config = loadConfig();
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`taproot: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    if (error instanceof ConfigError) {
      process.stderr.write(`taproot: configuration error: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  if (cmd.command === 'dlq list' || cmd.command === 'dlq replay') {
    try {
      await dlq(cmd, config);
      return 0;
    } catch (error) {
      progress(`${cmd.command} failed: ${error instanceof Error ? error.message : String(error)}`);
      return 1;
    }
  }
  return runOnDatabase(cmd, config);
}

async function runOnDatabase(cmd: DatabaseCommand, config: TaprootConfig): Promise<number> {
  let db: Database;
  try {
    db = await openDatabase(config);
  } catch (error) {
    progress(`could not open the database: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  try {
    if (cmd.command === 'org limits') await orgLimits(db, cmd, config);
    else if (cmd.command === 'app create') await appCreate(db, cmd);
    else if (cmd.command === 'app list') await appList(db, cmd, config);
    else if (cmd.command === 'app revoke') await appRevoke(db, cmd);
    else if (cmd.command === 'user add') await userAdd(db, cmd);
    else if (cmd.command === 'user list') await userList(db, cmd);
    else if (cmd.command === 'user remove') await userRemove(db, cmd);
    else if (cmd.command === 'scim token') await scimToken(db, cmd);
    else if (cmd.command === 'keys rotate') await keysRotate(db, cmd, config);
    else await orgCreate(db, cmd);
    return 0;
  } catch (error) {
    // A JSON:API error (unknown or revoked application) says what is wrong in its detail.
    const message = error instanceof JsonApiError ? (error.errors[0]?.detail ?? error.message) : error instanceof Error ? error.message : String(error);
    progress(`${cmd.command} failed: ${message}`);
    return 1;
  } finally {
    await db.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`taproot: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
