import { escapeHtml } from '@taproot/runtime';
import type { PageAddress } from './public-page.html';
import type { FeedEntry, PublicComponent, PublicPage, PublicStory } from './public-page.reader';

const component = (c: PublicComponent) => ({ id: c.id, name: c.name, description: c.description, status: c.status, status_name: c.statusName });

const story = (s: PublicStory) => ({
  id: s.id,
  title: s.title,
  status: s.status,
  scheduled_for: s.scheduledFor?.toISOString() ?? null,
  scheduled_until: s.scheduledUntil?.toISOString() ?? null,
  updates: s.updates.map((u) => ({ id: u.id, status: u.status, body: u.body, posted_at: u.postedAt.toISOString(), updated_at: u.updatedAt.toISOString() })),
});

/** The page as JSON (docs/status-pages.md, Public page): what the HTML shows, for scripts and widgets. */
export function pageJson(page: PublicPage, address: PageAddress): string {
  return JSON.stringify({
    page: {
      id: page.id,
      slug: page.slug,
      title: page.title,
      description: page.description,
      url: address.url,
      time_zone: page.timeZone,
      updated_at: page.updatedAt.toISOString(),
    },
    status: { operational: page.operational, message: page.message },
    components: page.components.map(component),
    component_groups: page.groups.map((g) => ({ id: g.id, name: g.name, description: g.description, collapsed_by_default: g.collapsedByDefault, components: g.components.map(component) })),
    incidents: page.incidents.map(story),
    scheduled_maintenances: page.maintenances.map(story),
    announcements: page.announcements.map((a) => ({ id: a.id, title: a.title, body: a.body, starts_at: a.startsAt.toISOString(), ends_at: a.endsAt?.toISOString() ?? null })),
    // Taproot measures no uptime yet: the window is said, no figure is made up.
    uptime: page.uptimeDays === null ? null : { last_days: page.uptimeDays, measured: false },
  });
}

/** Characters XML 1.0 does not allow (control characters but tab and line ends): dropped from the feed's text. */
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/** An Atom 1.0 feed (RFC 4287) of the page's updates and announcements. */
export function pageAtom(page: PublicPage, address: PageAddress, entries: FeedEntry[]): string {
  const x = (text: string) => escapeHtml(text.replace(NOT_XML, ''));
  const updated = entries[0]?.updated ?? page.updatedAt;
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `<id>urn:uuid:${page.id}</id>`,
    `<title>${x(page.title)}</title>`,
    `<updated>${updated.toISOString()}</updated>`,
    `<author><name>${x(page.title)}</name></author>`,
    `<link rel="alternate" type="text/html" href="${x(address.url)}"/>`,
    `<link rel="self" type="application/atom+xml" href="${x(`${address.url.replace(/\/$/, '')}/feed.atom`)}"/>`,
    ...entries.map((e) =>
      [
        '<entry>',
        `<id>urn:uuid:${e.id}</id>`,
        `<title>${x(e.title)}</title>`,
        `<published>${e.published.toISOString()}</published>`,
        `<updated>${e.updated.toISOString()}</updated>`,
        `<link rel="alternate" type="text/html" href="${x(address.url)}"/>`,
        `<content type="text">${x(e.body)}</content>`,
        '</entry>',
      ].join(''),
    ),
    '</feed>',
  ].join('\n');
}
