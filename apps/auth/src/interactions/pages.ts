import { Html, html } from '@taproot/runtime';
import type { ScopeDescription } from './scope-descriptions';

/**
 * The interaction pages (docs/oauth.md, "Sign-in pages and accounts"): plain forms that work
 * without JavaScript, one `<main>` with a heading, every field labelled and its error tied to it
 * with aria-describedby. No scripts at all, so the Content-Security-Policy forbids them.
 */
export interface RenderedPage {
  status: number;
  body: string;
  headers?: Record<string, string>;
}

export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

const STYLE = `
body{font-family:system-ui,sans-serif;margin:0;background:#f5f6f8;color:#1b1d21}
main{max-width:28rem;margin:3rem auto;padding:2rem;background:#fff;border-radius:8px}
label{display:block;font-weight:600;margin-top:1rem}
input[type=email],input[type=password]{display:block;width:100%;box-sizing:border-box;padding:.5rem;margin-top:.25rem}
fieldset{border:0;padding:0;margin:1rem 0}legend{font-weight:600}
.choice{display:flex;gap:.5rem;align-items:baseline;margin:.5rem 0}.choice label{display:inline;margin:0;font-weight:400}
.error{color:#a4000f;font-weight:600}.includes{font-size:.9rem;color:#4a4f58;margin:.25rem 0 .5rem 1.5rem}
button{margin-top:1.25rem;padding:.5rem 1.25rem;font-size:1rem}.secondary{background:none;border:1px solid #888}
code{font-size:.85rem;color:#4a4f58}`;

function layout(title: string, content: Html, status: number): RenderedPage {
  const body = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Taproot</title>
<style>${new Html(STYLE)}</style>
</head>
<body>
<main>
<h1>${title}</h1>
${content}
</main>
</body>
</html>
`;
  return { status, body: body.value };
}

/** The error paragraph a field's aria-describedby points at. */
function fieldError(id: string, message: string | undefined): Html {
  return html`${message ? html`<p class="error" id="${id}-error">${message}</p>` : null}`;
}

function describedBy(id: string, message: string | undefined): Html {
  return html`${message ? html` aria-describedby="${id}-error" aria-invalid="true"` : null}`;
}

function cancelForm(uid: string, label: string): Html {
  return html`<form method="post" action="/interaction/${uid}/abort"><button type="submit" class="secondary">${label}</button></form>`;
}

export interface SignInErrors {
  email?: string;
  password?: string;
}

export function signInPage(input: { uid: string; clientName: string; email?: string; errors?: SignInErrors; status?: number }): RenderedPage {
  const errors = input.errors ?? {};
  return layout(
    'Sign in',
    html`<p>Sign in to continue to <strong>${input.clientName}</strong>.</p>
<form method="post" action="/interaction/${input.uid}/login">
<label for="email">E-mail address</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${input.email ?? ''}"${describedBy('email', errors.email)}>
${fieldError('email', errors.email)}
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${describedBy('password', errors.password)}>
${fieldError('password', errors.password)}
<button type="submit">Sign in</button>
</form>
${cancelForm(input.uid, 'Cancel')}`,
    input.status ?? 200,
  );
}

export interface OrganizationChoice {
  organizationId: string;
  organizationName: string;
  userName: string | null;
}

export function organizationPage(input: { uid: string; clientName: string; email: string; choices: OrganizationChoice[]; error?: string; status?: number }): RenderedPage {
  const options = input.choices.map(
    (c, i) => html`<div class="choice">
<input type="radio" id="organization-${i}" name="organization_id" value="${c.organizationId}" required${i === 0 ? html` checked` : null}>
<label for="organization-${i}">${c.organizationName}${c.userName ? html` <span>(as ${c.userName})</span>` : null}</label>
</div>`,
  );
  return layout(
    'Choose an organization',
    html`<p>Signed in as <strong>${input.email}</strong>. <strong>${input.clientName}</strong> will act on the organization you choose.</p>
<form method="post" action="/interaction/${input.uid}/organization">
<fieldset${describedBy('organization_id', input.error)}>
<legend>Organization</legend>
${options}
</fieldset>
${fieldError('organization_id', input.error)}
<button type="submit">Continue</button>
</form>
${cancelForm(input.uid, 'Cancel')}`,
    input.status ?? 200,
  );
}

export function consentPage(input: {
  uid: string;
  clientName: string;
  userName: string;
  organizationName: string;
  scopes: ScopeDescription[];
  error?: string;
  status?: number;
}): RenderedPage {
  const items = input.scopes.map(
    (s, i) => html`<li>
<div class="choice">
<input type="checkbox" id="scope-${i}" name="scope" value="${s.scope}" checked>
<label for="scope-${i}">${s.description} <code>${s.scope}</code></label>
</div>
${s.includes.length ? html`<ul class="includes" aria-label="${s.scope} includes">${s.includes.map((d) => html`<li>${d}</li>`)}</ul>` : null}
</li>`,
  );
  return layout(
    'Allow access',
    html`<p><strong>${input.clientName}</strong> wants to act as <strong>${input.userName}</strong> in <strong>${input.organizationName}</strong>. It never gets more access than your role allows.</p>
<form method="post" action="/interaction/${input.uid}/confirm">
${
  input.scopes.length
    ? html`<fieldset${describedBy('scope', input.error)}>
<legend>Permissions</legend>
<ul>${items}</ul>
</fieldset>
${fieldError('scope', input.error)}`
    : null
}
<button type="submit">Allow</button>
</form>
${cancelForm(input.uid, 'Deny')}`,
    input.status ?? 200,
  );
}

/** Expired interactions, refusals and throttling: a heading, a sentence, nothing to submit. */
export function messagePage(title: string, message: string, status: number, headers?: Record<string, string>): RenderedPage {
  return { ...layout(title, html`<p>${message}</p>`, status), headers };
}
