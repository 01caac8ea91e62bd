import { ianaZoneOf } from '@taproot/config';
import { Html, html, type Part } from '@taproot/runtime';
import { statusLabel, type PublicComponent, type PublicPage, type PublicStory } from './public-page.reader';

/** Where the page's own files are: `/status/{slug}` or the root of a custom domain. */
export interface PageAddress {
  /** The path the page's links start with (`/status/acme`, or empty on a custom domain). */
  base: string;
  /** The page's absolute URL (the feed's links and ids). */
  url: string;
}

// The defaults of the status pages resource (docs/status-pages.md), for a color that is not a hex color.
const HEADER = '#0061F2';
const FOOTER = '#1F2F41';
const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

/** WCAG 2 relative luminance of a #rgb / #rrggbb color. */
function luminance(hex: string): number {
  const digits = hex.length === 4 ? [...hex.slice(1)].map((d) => d + d) : [hex.slice(1, 3), hex.slice(3, 5), hex.slice(5, 7)];
  const [r, g, b] = digits.map((d) => {
    const c = parseInt(d, 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/**
 * The text color for a background of the page's colors: black or white, whichever contrasts
 * more; one of the two always reaches 4.5:1 (WCAG AA), whatever color the page chose.
 */
export function textOn(background: string): '#000000' | '#FFFFFF' {
  const l = luminance(background);
  return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? '#000000' : '#FFFFFF';
}

const colorOr = (color: string | null, fallback: string): string => (color && HEX.test(color) ? color : fallback);

/** Only web addresses become links: a `javascript:` URL in a page's settings must not. */
const webUrl = (url: string | null): string | null => (url && /^https?:\/\//i.test(url) ? url : null);

const formats = new Map<string, Intl.DateTimeFormat>();
/** A time in the page's time zone (an IANA or a Rails name, as stored), as text and as a machine-readable `datetime`. */
function time(at: Date, timeZone: string): Html {
  let format = formats.get(timeZone);
  if (!format) {
    const zone = ianaZoneOf(timeZone) ?? 'Etc/UTC';
    formats.set(timeZone, (format = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: zone, timeZoneName: 'short' })));
  }
  return html`<time datetime="${at.toISOString()}">${format.format(at)}</time>`;
}

// Secondary text is grey only on main's white: in the footer it keeps the footer's black or white (contrast).
const STYLE = `body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;background:#fff}
header,footer{padding:1.5rem 1rem}header h1{margin:0;font-size:1.75rem}header p{margin:.25rem 0 0}
main{max-width:48rem;margin:0 auto;padding:1rem}section{margin:0 0 2rem}h2{font-size:1.25rem;margin:0 0 .75rem}h3{font-size:1.05rem;margin:0}
ul,ol{list-style:none;margin:0;padding:0}.components li,.updates li,.announcements li{padding:.5rem 0;border-bottom:1px solid #d4d4d4}
.dot{display:inline-block;width:.75rem;height:.75rem;border-radius:50%;margin-right:.5rem}.state{float:right}
.overall{padding:.75rem 1rem;border:2px solid #1a1a1a;border-radius:.25rem;font-weight:600}
details{margin:.75rem 0}summary{cursor:pointer}summary h3{display:inline}.body{white-space:pre-line}
article{margin:0 0 1.25rem}main small,main time{color:#4a4a4a}footer a{color:inherit}footer nav a{margin-right:1rem}`;

function component(c: PublicComponent): Html {
  return html`<li><span class="dot" style="background:${colorOr(c.color, '#6B7280')}" aria-hidden="true"></span>${c.name} <span class="state">${c.statusName}</span>${
    c.description ? html`<br><small>${c.description}</small>` : null
  }</li>`;
}

function story(s: PublicStory, timeZone: string): Html {
  const window = s.scheduledFor ? html`<p>Scheduled for ${time(s.scheduledFor, timeZone)}${s.scheduledUntil ? html` until ${time(s.scheduledUntil, timeZone)}` : null}</p>` : null;
  return html`<article><h3>${s.title}</h3><p>Status: ${statusLabel(s.status)}</p>${window}<ol class="updates">${s.updates.map(
    (u) => html`<li><strong>${statusLabel(u.status)}</strong> · ${time(u.postedAt, timeZone)}<div class="body">${u.body}</div></li>`,
  )}</ol></article>`;
}

function section(id: string, heading: string, content: Part): Html {
  return html`<section aria-labelledby="${id}"><h2 id="${id}">${heading}</h2>${content}</section>`;
}

const SECTIONS: Record<string, (page: PublicPage) => Html> = {
  system_status: (page) =>
    section(
      'system-status',
      'Current status',
      html`<p class="overall">${page.message}</p><ul class="components">${page.components.map(component)}</ul>${page.groups.map(
        (g) =>
          html`<details${g.collapsedByDefault ? null : html` open`}><summary><h3>${g.name}</h3></summary>${g.description ? html`<p>${g.description}</p>` : null}<ul class="components">${g.components.map(component)}</ul></details>`,
      )}${page.uptimeDays === null ? null : html`<p>Uptime over the last ${page.uptimeDays} days: not measured yet.</p>`}`,
    ),
  incidents: (page) =>
    section('incidents', 'Active incidents', page.incidents.length ? page.incidents.map((s) => story(s, page.timeZone)) : html`<p>No active incidents.</p>`),
  maintenance: (page) =>
    section('maintenance', 'Scheduled maintenance', page.maintenances.length ? page.maintenances.map((s) => story(s, page.timeZone)) : html`<p>No scheduled maintenance.</p>`),
};

/** The public page: plain HTML without scripts or outside assets, sections in the page's `section_order`. */
export function pageHtml(page: PublicPage, address: PageAddress): string {
  const header = colorOr(page.headerColor, HEADER);
  const footer = colorOr(page.footerColor, FOOTER);
  const links = (
    [
      ['Website', webUrl(page.links.website)],
      ['Privacy', webUrl(page.links.privacy)],
      ['Support', webUrl(page.links.support)],
    ] as const
  ).flatMap(([label, url]) => (url ? [html`<a href="${url}">${label}</a>`] : []));
  const announcements = page.announcements.length
    ? section(
        'announcements',
        'Announcements',
        html`<ul class="announcements">${page.announcements.map((a) => html`<li><h3>${a.title}</h3><div class="body">${a.body}</div><small>Since ${time(a.startsAt, page.timeZone)}${a.endsAt ? html`, until ${time(a.endsAt, page.timeZone)}` : null}</small></li>`)}</ul>`,
      )
    : null;
  return `<!doctype html>\n${
    html`<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${page.title} status</title>${
      page.description ? html`<meta name="description" content="${page.description}">` : null
    }${page.indexable ? null : html`<meta name="robots" content="noindex">`}<link rel="alternate" type="application/atom+xml" title="${page.title} updates" href="${address.base}/feed.atom"><link rel="alternate" type="application/json" href="${address.base}/index.json"><style>${new Html(STYLE)}</style></head><body><header style="background:${header};color:${textOn(header)}"><h1>${page.title}</h1>${
      page.description ? html`<p>${page.description}</p>` : null
    }</header><main>${announcements}${page.sectionOrder.map((name) => SECTIONS[name]?.(page))}</main><footer style="background:${footer};color:${textOn(footer)}"><nav aria-label="Links">${links}<a href="${address.base}/feed.atom">Atom feed</a><a href="${address.base}/index.json">JSON</a></nav><p>Last updated ${time(page.updatedAt, page.timeZone)}</p></footer></body></html>`.value
  }`;
}
