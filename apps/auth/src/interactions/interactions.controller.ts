import { Controller, Get, Inject, Param, Post, Req, Res, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { CLOCK, type Clock } from '@taproot/config';
import { RateLimiter, rateLimitHeaders } from '@taproot/auth';
import { accountsForEmail, verifyPassword, type AccountChoice } from '@taproot/identity';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { InteractionDetails } from 'oidc-provider';
import { DataSource } from 'typeorm';
import { OIDC_PROVIDER } from '../oidc/provider.token';
import { claimClientOrganization } from './client-organization';
import { consentPage, messagePage, organizationPage, PAGE_HEADERS, signInPage, type RenderedPage } from './pages';
import { registerFormBodyParser } from './form-body';
import { describeScope } from './scope-descriptions';
import { SIGN_IN_WINDOW_SECONDS, SignInThrottle } from './sign-in-throttle';

type FormRequest = FastifyRequest<{ Body: URLSearchParams | undefined }>;

/** Kept on the interaction between the sign-in form and the organization picker. */
interface SignedIn {
  taproot_signed_in?: { email: string };
}

const EXPIRED = messagePage(
  'Sign-in expired',
  'This sign-in page is no longer valid (it expired or was opened in another browser). Go back to the application and start again.',
  400,
);
const WRONG_ORGANIZATION = messagePage(
  'Organization not allowed',
  'This application is already connected to another organization. It can only act on the organization its first user chose; ask that organization’s admin, or register the application again.',
  403,
);
const NO_ORGANIZATION = messagePage('No organization', 'Your account is not a member of any organization. Ask an admin to invite you.', 403);

/**
 * The pages oidc-provider sends the browser to (`/interaction/:uid`, docs/oauth.md): sign-in,
 * organization picker, consent. The interaction is the provider's, found through its cookie (so a
 * form posted from another site finds none); these handlers only render and hand back results.
 */
@Controller('interaction')
export class InteractionsController implements OnModuleInit {
  private readonly throttle: SignInThrottle;

  constructor(
    @Inject(OIDC_PROVIDER) private readonly provider: Provider,
    private readonly dataSource: DataSource,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly adapterHost: HttpAdapterHost,
  ) {
    this.throttle = new SignInThrottle(new RateLimiter(dataSource, clock, SIGN_IN_WINDOW_SECONDS));
  }

  onModuleInit(): void {
    registerFormBodyParser(this.adapterHost.httpAdapter.getInstance<FastifyInstance>());
  }

  @Get(':uid')
  async show(@Param('uid') uid: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const details = await this.details(uid, req, reply);
    if (!details) return send(reply, EXPIRED);
    const clientName = await this.clientName(details);
    if (details.prompt.name === 'login') {
      const email = (details.result as SignedIn | undefined)?.taproot_signed_in?.email;
      return send(reply, email ? this.organizations(uid, clientName, email, await accountsForEmail(this.dataSource, email)) : signInPage({ uid, clientName }));
    }
    if (details.prompt.name === 'consent') return send(reply, await this.consent(details, clientName));
    return send(reply, EXPIRED);
  }

  @Post(':uid/login')
  async login(@Param('uid') uid: string, @Req() req: FormRequest, @Res() reply: FastifyReply): Promise<void> {
    const details = await this.details(uid, req, reply);
    if (!details || details.prompt.name !== 'login') return send(reply, EXPIRED);
    const clientName = await this.clientName(details);
    const email = req.body?.get('email')?.trim() ?? '';
    const password = req.body?.get('password') ?? '';
    const missing = {
      email: email ? undefined : 'Enter your e-mail address.',
      password: password ? undefined : 'Enter your password.',
    };
    if (missing.email || missing.password) return send(reply, signInPage({ uid, clientName, email, errors: missing, status: 400 }));
    const blocked = await this.throttle.blocked(email, req.ip);
    if (blocked) {
      const minutes = Math.ceil(blocked.retryAfterSeconds / 60);
      return send(
        reply,
        messagePage('Too many attempts', `Too many failed sign-ins. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`, 429, {
          ...rateLimitHeaders(blocked),
          'retry-after': String(blocked.retryAfterSeconds),
        }),
      );
    }
    if (!(await verifyPassword(this.dataSource, email, password))) {
      await this.throttle.failed(email, req.ip);
      const error = 'The e-mail address or password is incorrect.';
      return send(reply, signInPage({ uid, clientName, email, errors: { password: error }, status: 401 }));
    }
    details.result = { taproot_signed_in: { email } } satisfies SignedIn;
    await details.persist();
    return redirect(reply, `/interaction/${uid}`);
  }

  @Post(':uid/organization')
  async organization(@Param('uid') uid: string, @Req() req: FormRequest, @Res() reply: FastifyReply): Promise<void> {
    const details = await this.details(uid, req, reply);
    if (!details || details.prompt.name !== 'login') return send(reply, EXPIRED);
    const email = (details.result as SignedIn | undefined)?.taproot_signed_in?.email;
    // Only a correct password puts the e-mail there; without it, back to the sign-in form.
    if (!email) return redirect(reply, `/interaction/${uid}`);
    const choices = await accountsForEmail(this.dataSource, email);
    const chosen = choices.find((a) => a.organizationId === req.body?.get('organization_id'));
    if (!chosen) return send(reply, this.organizations(uid, await this.clientName(details), email, choices, 'Choose one of the listed organizations.'));
    if (!(await claimClientOrganization(this.dataSource, String(details.params.client_id), chosen.organizationId, this.clock))) {
      return send(reply, WRONG_ORGANIZATION);
    }
    return this.finish(req, reply, { login: { accountId: String(chosen.userId) } }, false);
  }

  @Post(':uid/confirm')
  async confirm(@Param('uid') uid: string, @Req() req: FormRequest, @Res() reply: FastifyReply): Promise<void> {
    const details = await this.details(uid, req, reply);
    if (!details || details.prompt.name !== 'consent' || !details.session) return send(reply, EXPIRED);
    const { missingOIDCScope, missingResourceScopes, missingOIDCClaims } = promptDetails(details);
    const requested = requestedScopes(details);
    const approved = new Set((req.body?.getAll('scope') ?? []).filter((s) => requested.includes(s)));
    if (requested.length > 0 && approved.size === 0) {
      return send(reply, await this.consent(details, await this.clientName(details), 'Choose at least one permission, or deny access.'));
    }
    const account = await this.account(details.session.accountId);
    // A remembered sign-in skips the picker, so the client's organization is checked here too.
    if (!account || !(await claimClientOrganization(this.dataSource, String(details.params.client_id), account.organizationId, this.clock))) {
      return send(reply, account ? WRONG_ORGANIZATION : EXPIRED);
    }
    const grant = details.grantId
      ? await this.provider.Grant.find(details.grantId)
      : new this.provider.Grant({ accountId: details.session.accountId, clientId: details.params.client_id });
    const [granted, rejected] = partition(missingOIDCScope, approved);
    if (granted.length) grant.addOIDCScope(granted.join(' '));
    if (rejected.length) grant.rejectOIDCScope(rejected.join(' '));
    if (missingOIDCClaims.length) grant.addOIDCClaims(missingOIDCClaims);
    for (const [resource, scopes] of Object.entries(missingResourceScopes)) {
      const [grantedHere, rejectedHere] = partition(scopes, approved);
      if (grantedHere.length) grant.addResourceScope(resource, grantedHere.join(' '));
      if (rejectedHere.length) grant.rejectResourceScope(resource, rejectedHere.join(' '));
    }
    const grantId: string = await grant.save();
    return this.finish(req, reply, { consent: { grantId } }, true);
  }

  @Post(':uid/abort')
  async abort(@Param('uid') uid: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    if (!(await this.details(uid, req, reply))) return send(reply, EXPIRED);
    return this.finish(req, reply, { error: 'access_denied', error_description: 'The user denied the request.' }, false);
  }

  /** The browser's interaction, or null when its cookie is missing, expired or for another uid. */
  private async details(uid: string, req: FastifyRequest, reply: FastifyReply): Promise<InteractionDetails | null> {
    try {
      const details = await this.provider.interactionDetails(req.raw, reply.raw);
      return details.uid === uid ? details : null;
    } catch (error) {
      if ((error as Error).name === 'SessionNotFound') return null;
      throw error;
    }
  }

  private async finish(req: FastifyRequest, reply: FastifyReply, result: Record<string, unknown>, mergeWithLastSubmission: boolean): Promise<void> {
    const returnTo = await this.provider.interactionResult(req.raw, reply.raw, result, { mergeWithLastSubmission });
    return redirect(reply, returnTo);
  }

  private async clientName(details: InteractionDetails): Promise<string> {
    const client = await this.provider.Client.find(String(details.params.client_id));
    return client?.clientName ?? String(details.params.client_id);
  }

  private organizations(uid: string, clientName: string, email: string, choices: AccountChoice[], error?: string): RenderedPage {
    if (choices.length === 0) return NO_ORGANIZATION;
    return organizationPage({ uid, clientName, email, choices, error, status: error ? 400 : 200 });
  }

  private async consent(details: InteractionDetails, clientName: string, error?: string): Promise<RenderedPage> {
    const account = details.session ? await this.account(details.session.accountId) : null;
    if (!account) return EXPIRED;
    return consentPage({
      uid: details.uid,
      clientName,
      userName: account.userName ?? account.email,
      organizationName: account.organizationName,
      scopes: requestedScopes(details).map(describeScope),
      error,
      status: error ? 400 : 200,
    });
  }

  private async account(accountId: string): Promise<{ email: string; userName: string | null; organizationId: string; organizationName: string } | null> {
    if (!/^\d{1,10}$/.test(accountId)) return null;
    const [row] = await this.dataSource.query(
      `SELECT u.email, u.full_name AS "userName", o.id::text AS "organizationId", o.name AS "organizationName"
         FROM users_view u JOIN organizations o ON o.id = u.organization_id WHERE u.id = $1`,
      [Number(accountId)],
    );
    return row ?? null;
  }
}

function promptDetails(details: InteractionDetails): { missingOIDCScope: string[]; missingResourceScopes: Record<string, string[]>; missingOIDCClaims: string[] } {
  const d = details.prompt.details as { missingOIDCScope?: string[]; missingResourceScopes?: Record<string, string[]>; missingOIDCClaims?: string[] };
  return { missingOIDCScope: d.missingOIDCScope ?? [], missingResourceScopes: d.missingResourceScopes ?? {}, missingOIDCClaims: d.missingOIDCClaims ?? [] };
}

/** What the consent page asks for: the scopes not granted yet, once each (OpenID and resource alike). */
function requestedScopes(details: InteractionDetails): string[] {
  const { missingOIDCScope, missingResourceScopes } = promptDetails(details);
  return [...new Set([...missingOIDCScope, ...Object.values(missingResourceScopes).flat()])];
}

function partition(scopes: string[], approved: Set<string>): [string[], string[]] {
  return [scopes.filter((s) => approved.has(s)), scopes.filter((s) => !approved.has(s))];
}

function send(reply: FastifyReply, page: RenderedPage): void {
  void reply.code(page.status).headers({ ...PAGE_HEADERS, ...page.headers }).send(page.body);
}

/** 303: the browser follows a form post with a GET. */
function redirect(reply: FastifyReply, location: string): void {
  void reply.code(303).header('location', location).header('cache-control', 'no-store').send();
}
