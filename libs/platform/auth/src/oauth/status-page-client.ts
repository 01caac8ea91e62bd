import type { TaprootConfig } from '@taproot/config';

/**
 * The status page client: the api's own confidential client at the auth app, through which a
 * private status page signs people in (docs/status-pages.md, Sign-in). Both apps derive it from
 * the same configuration, so it needs no registration: the auth app serves it as a static client.
 */
export interface StatusPageClient {
  clientId: string;
  clientSecret: string;
  /** The one redirect URI: the api's callback at its public URL. */
  redirectUri: string;
}

export const STATUS_PAGE_CLIENT_ID = 'taproot-status-pages';
export const STATUS_PAGE_CALLBACK_PATH = '/status/sign-in/callback';

export const statusPageClient = (config: Pick<TaprootConfig, 'publicUrl' | 'statusPageClientSecret'>): StatusPageClient => ({
  clientId: STATUS_PAGE_CLIENT_ID,
  clientSecret: config.statusPageClientSecret,
  redirectUri: `${config.publicUrl}${STATUS_PAGE_CALLBACK_PATH}`,
});
