import { Inject, Injectable } from '@nestjs/common';
import { publicIncidents, type PublicIncident } from '@taproot/incidents';
import { isUuid } from '@taproot/json-api';
import { DataSource } from 'typeorm';

/** A status page row as the public page needs it (`status_pages_read`). */
interface PageRow {
  id: string;
  organization_id: string;
  slug: string;
  title: string;
  public_title: string | null;
  description: string | null;
  public_description: string | null;
  header_color: string | null;
  footer_color: string | null;
  allow_search_engine_index: boolean;
  authentication_method: string;
  success_message: string | null;
  failure_message: string | null;
  website_url: string | null;
  website_privacy_url: string | null;
  website_support_url: string | null;
  time_zone: string;
  public: boolean;
  enabled: boolean;
  show_uptime: boolean;
  show_uptime_last_days: number;
  section_order: string[];
  updated_at: Date;
}

const PAGE_COLUMNS = `p.id, p.organization_id, p.slug, p.title, p.public_title, p.description, p.public_description, p.header_color,
  p.footer_color, p.allow_search_engine_index, p.authentication_method, p.success_message, p.failure_message, p.website_url,
  p.website_privacy_url, p.website_support_url, p.time_zone, p.public, p.enabled, p.show_uptime, p.show_uptime_last_days,
  p.section_order, p.updated_at`;

export interface PublicComponent {
  id: string;
  name: string;
  description: string | null;
  /** The status's slug, its name and its color (`/v1/statuses`). */
  status: string;
  statusName: string;
  color: string;
}

export interface PublicComponentGroup {
  id: string;
  name: string;
  description: string | null;
  collapsedByDefault: boolean;
  components: PublicComponent[];
}

export interface PublicUpdate {
  id: string;
  status: string;
  body: string;
  postedAt: Date;
  updatedAt: Date;
}

/** An incident or a maintenance on the page, with its updates newest first. */
export interface PublicStory extends PublicIncident {
  /** The status of its newest update. */
  status: string;
  updates: PublicUpdate[];
}

export interface PublicAnnouncement {
  id: string;
  title: string;
  body: string;
  startsAt: Date;
  endsAt: Date | null;
  updatedAt: Date;
}

/** Everything the public page, its JSON and its feed show of one status page. */
export interface PublicPage {
  id: string;
  organizationId: string;
  slug: string;
  title: string;
  description: string | null;
  timeZone: string;
  headerColor: string | null;
  footerColor: string | null;
  indexable: boolean;
  links: { website: string | null; privacy: string | null; support: string | null };
  sectionOrder: string[];
  /** No component in trouble and no active incident. */
  operational: boolean;
  message: string;
  components: PublicComponent[];
  groups: PublicComponentGroup[];
  incidents: PublicStory[];
  maintenances: PublicStory[];
  announcements: PublicAnnouncement[];
  /** The window uptime would be shown for (show_uptime), null otherwise. */
  uptimeDays: number | null;
  /** The newest change of anything shown. */
  updatedAt: Date;
  /** Public and asking no sign-in: only such a page is served from memory (public-page.cache.ts). */
  anyoneMayRead: boolean;
  /** When the page next shows something else by itself (an announcement starting or ending); null: never. */
  changesAt: Date | null;
}

/** A page shown to people who sign in: who may, and its content once they have. */
export interface PrivatePage {
  id: string;
  organizationId: string;
  /** `authentication_method` password: a password form; otherwise a sign-in through the auth app. */
  password: boolean;
  read(): Promise<PublicPage>;
}

/** Where a request finds its page: unknown (or disabled), asking for a sign-in, or shown. */
export type PageLookup = { kind: 'missing' } | { kind: 'sign-in'; page: PrivatePage } | { kind: 'page'; page: PublicPage };

/** The feed's entries: the page's updates and announcements, newest first. */
export interface FeedEntry {
  id: string;
  title: string;
  body: string;
  published: Date;
  updated: Date;
}

/** A status page event's statuses that end a story: the page stops showing it. */
const CLOSING = ['resolved', 'completed'];
/** A maintenance's statuses (the others are an incident's). */
const MAINTENANCE = new Set(['scheduled', 'in_progress', 'completed']);
/** Component statuses that are not trouble: the page still says `success_message`. */
const UNTROUBLED = new Set(['operational', 'under_maintenance']);
const FEED_SIZE = 50;

export const DEFAULT_SUCCESS = 'All systems operational';
export const DEFAULT_FAILURE = 'Some systems are having problems';

const latest = (dates: Date[]): Date => new Date(Math.max(...dates.map((d) => d.getTime())));
const earliest = (dates: Date[]): Date | null => (dates.length ? new Date(Math.min(...dates.map((d) => d.getTime()))) : null);

/**
 * Reads a status page for the public (docs/status-pages.md, Public page). The page is found
 * across organizations (its address names no organization); everything else is read within the
 * page's organization, from this context's read models and the incidents context's port.
 */
@Injectable()
export class PublicPageReader {
  constructor(@Inject(DataSource) private readonly db: DataSource) {}

  /**
   * `/status/{slug}`: a slug is unique within an organization only, so the page created first
   * holds the address (a later page of another organization cannot take it over, even while the
   * first is disabled or private); the page's id always names it.
   */
  async bySlug(slugOrId: string): Promise<PageLookup> {
    const where = isUuid(slugOrId) ? 'p.id = $1' : 'p.slug = $1';
    const [row] = (await this.db.query(`SELECT ${PAGE_COLUMNS} FROM status_pages_read p WHERE ${where} ORDER BY p.created_at, p.id LIMIT 1`, [slugOrId])) as PageRow[];
    return this.lookup(row);
  }

  /**
   * A request on a custom domain: a page listing `host` in its external_domain_names, of an
   * organization that verified the domain. Two organizations may both have verified it (each
   * published its token); the one whose check passed last holds it.
   */
  async byHost(host: string): Promise<PageLookup> {
    const [row] = (await this.db.query(
      `SELECT ${PAGE_COLUMNS} FROM verified_domains_read d
         JOIN status_pages_read p ON p.organization_id = d.organization_id AND d.domain = ANY(p.external_domain_names)
        WHERE d.domain = $1 AND d.verification_status = 'verified'
        ORDER BY d.last_check_passed_at DESC NULLS LAST, p.created_at, p.id LIMIT 1`,
      [host],
    )) as PageRow[];
    return this.lookup(row);
  }

  /** A password page's stored scrypt hash (the write table alone holds it: the read model has `********`). */
  async passwordHash(page: PrivatePage): Promise<string | null> {
    const [row] = (await this.db.query('SELECT authentication_password FROM status_pages WHERE organization_id = $1 AND id = $2', [page.organizationId, page.id])) as {
      authentication_password: string | null;
    }[];
    return row?.authentication_password ?? null;
  }

  /** The page's updates (of incidents it may show) and its started announcements, newest change first. */
  async feed(page: PublicPage): Promise<FeedEntry[]> {
    const { organizationId } = page;
    const [events, announcements] = await Promise.all([
      this.db.query(
        `SELECT id, incident_id, status, event, started_at, updated_at FROM incident_status_page_events_read
          WHERE organization_id = $1 AND status_page_id = $2 ORDER BY updated_at DESC, id DESC LIMIT ${FEED_SIZE}`,
        [organizationId, page.id],
      ) as Promise<EventRow[]>,
      this.db.query(
        `SELECT id, title, body, starts_at, updated_at FROM status_page_announcements_read
          WHERE organization_id = $1 AND status_page_id = $2 AND enabled AND starts_at <= now() ORDER BY updated_at DESC, id DESC LIMIT ${FEED_SIZE}`,
        [organizationId, page.id],
      ) as Promise<{ id: string; title: string; body: string; starts_at: Date; updated_at: Date }[]>,
    ]);
    const incidents = await publicIncidents(this.db, organizationId, [...new Set(events.map((e) => e.incident_id))]);
    const entries: FeedEntry[] = [
      ...events.flatMap((e) => {
        const incident = incidents.get(e.incident_id);
        return incident ? [{ id: e.id, title: `${incident.title}: ${statusLabel(e.status)}`, body: e.event, published: e.started_at, updated: e.updated_at }] : [];
      }),
      ...announcements.map((a) => ({ id: a.id, title: a.title, body: a.body, published: a.starts_at, updated: a.updated_at })),
    ];
    return entries.sort((a, b) => b.updated.getTime() - a.updated.getTime() || (a.id < b.id ? 1 : -1)).slice(0, FEED_SIZE);
  }

  private async lookup(row: PageRow | undefined): Promise<PageLookup> {
    if (!row || !row.enabled) return { kind: 'missing' };
    // A password or SAML page asks for a sign-in too (through the auth app: docs/status-pages.md, Sign-in).
    if (!row.public || row.authentication_method !== 'none') {
      const password = row.authentication_method === 'password';
      return { kind: 'sign-in', page: { id: row.id, organizationId: row.organization_id, password, read: () => this.content(row) } };
    }
    return { kind: 'page', page: await this.content(row) };
  }

  private async content(row: PageRow): Promise<PublicPage> {
    const scope = [row.organization_id, row.id];
    const [groups, components, announcementRows, events] = await Promise.all([
      this.db.query(
        `SELECT id, name, description, collapsed_by_default, updated_at FROM status_page_component_groups_read
          WHERE organization_id = $1 AND status_page_id = $2 ORDER BY position, created_at, id`,
        scope,
      ) as Promise<{ id: string; name: string; description: string | null; collapsed_by_default: boolean; updated_at: Date }[]>,
      this.db.query(
        `SELECT c.id, c.name, c.description, c.status, c.status_page_component_group_id AS group_id, c.updated_at,
                COALESCE(s.name, c.status) AS status_name, COALESCE(s.color, '#6B7280') AS color
           FROM status_page_components_read c
           LEFT JOIN statuses_read s ON s.organization_id = c.organization_id AND s.slug = c.status
          WHERE c.organization_id = $1 AND c.status_page_id = $2 ORDER BY c.position, c.created_at, c.id`,
        scope,
      ) as Promise<(PublicComponent & { status_name: string; group_id: string | null; updated_at: Date })[]>,
      // The active ones and those still to start: when one starts or ends, the page changes (changesAt).
      this.db.query(
        `SELECT id, title, body, starts_at, ends_at, updated_at, active FROM status_page_announcements_read
          WHERE organization_id = $1 AND status_page_id = $2 AND enabled AND (ends_at IS NULL OR ends_at > now())
          ORDER BY starts_at DESC, created_at DESC, id DESC`,
        scope,
      ) as Promise<{ id: string; title: string; body: string; starts_at: Date; ends_at: Date | null; updated_at: Date; active: boolean }[]>,
      // Every update of the stories whose newest update on this page does not close them.
      this.db.query(
        `WITH newest AS (
           SELECT DISTINCT ON (incident_id) incident_id, status FROM incident_status_page_events_read
            WHERE organization_id = $1 AND status_page_id = $2 ORDER BY incident_id, started_at DESC, created_at DESC, id DESC)
         SELECT e.id, e.incident_id, e.status, e.event, e.started_at, e.updated_at
           FROM incident_status_page_events_read e JOIN newest n ON n.incident_id = e.incident_id
          WHERE e.organization_id = $1 AND e.status_page_id = $2 AND n.status <> ALL($3::text[])
          ORDER BY e.started_at DESC, e.created_at DESC, e.id DESC`,
        [...scope, CLOSING],
      ) as Promise<EventRow[]>,
    ]);
    const stories = await this.stories(row.organization_id, events);
    const announcements = announcementRows.filter((a) => a.active);
    const shown = components.map((c) => ({ id: c.id, name: c.name, description: c.description, status: c.status, statusName: c.status_name, color: c.color }));
    const incidents = stories.filter((s) => !MAINTENANCE.has(s.status));
    const operational = incidents.length === 0 && components.every((c) => UNTROUBLED.has(c.status));
    return {
      id: row.id,
      organizationId: row.organization_id,
      slug: row.slug,
      title: row.public_title ?? row.title,
      description: row.public_description ?? row.description,
      timeZone: row.time_zone,
      headerColor: row.header_color,
      footerColor: row.footer_color,
      indexable: row.allow_search_engine_index,
      links: { website: row.website_url, privacy: row.website_privacy_url, support: row.website_support_url },
      sectionOrder: row.section_order,
      operational,
      message: operational ? (row.success_message ?? DEFAULT_SUCCESS) : (row.failure_message ?? DEFAULT_FAILURE),
      components: shown.filter((_, i) => components[i].group_id === null),
      groups: groups.map((g) => ({
        id: g.id,
        name: g.name,
        description: g.description,
        collapsedByDefault: g.collapsed_by_default,
        components: shown.filter((_, i) => components[i].group_id === g.id),
      })),
      incidents,
      maintenances: stories.filter((s) => MAINTENANCE.has(s.status)),
      announcements: announcements.map((a) => ({ id: a.id, title: a.title, body: a.body, startsAt: a.starts_at, endsAt: a.ends_at, updatedAt: a.updated_at })),
      uptimeDays: row.show_uptime ? row.show_uptime_last_days : null,
      updatedAt: latest([row.updated_at, ...groups.map((g) => g.updated_at), ...components.map((c) => c.updated_at), ...announcements.map((a) => a.updated_at), ...events.map((e) => e.updated_at)]),
      anyoneMayRead: row.public && row.authentication_method === 'none',
      changesAt: earliest(announcementRows.flatMap((a) => (a.active ? (a.ends_at ? [a.ends_at] : []) : [a.starts_at]))),
    };
  }

  /** The events (newest first) gathered per incident, for the incidents the page may show; newest story first. */
  private async stories(organizationId: string, events: EventRow[]): Promise<PublicStory[]> {
    const incidents = await publicIncidents(this.db, organizationId, [...new Set(events.map((e) => e.incident_id))]);
    const stories = new Map<string, PublicStory>();
    for (const e of events) {
      const incident = incidents.get(e.incident_id);
      if (!incident) continue;
      const story = stories.get(e.incident_id) ?? stories.set(e.incident_id, { ...incident, status: e.status, updates: [] }).get(e.incident_id)!;
      story.updates.push({ id: e.id, status: e.status, body: e.event, postedAt: e.started_at, updatedAt: e.updated_at });
    }
    return [...stories.values()];
  }
}

interface EventRow {
  id: string;
  incident_id: string;
  status: string;
  event: string;
  started_at: Date;
  updated_at: Date;
}

/** `in_progress` → `In progress`. */
export const statusLabel = (status: string): string => status.charAt(0).toUpperCase() + status.slice(1).replace(/_/g, ' ');
