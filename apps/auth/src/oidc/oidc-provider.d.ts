/**
 * oidc-provider ships no type declarations: the part of its API Taproot uses, loosely typed
 * (its configuration and models are documented in node_modules/oidc-provider/docs).
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export type KoaContextWithOIDC = any;

  export interface InteractionDetails {
    uid: string;
    prompt: { name: string; reasons: string[]; details: Record<string, unknown> };
    params: Record<string, any>;
    session?: { accountId: string; uid: string; cookie: string };
    grantId?: string;
    lastSubmission?: Record<string, any>;
    [key: string]: any;
  }

  export default class Provider {
    constructor(issuer: string, configuration?: Record<string, any>);
    readonly issuer: string;
    proxy: boolean;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    use(middleware: (ctx: KoaContextWithOIDC, next: () => Promise<void>) => Promise<void> | void): void;
    on(event: string, listener: (...args: any[]) => void): this;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(req: IncomingMessage, res: ServerResponse, result: Record<string, any>, options?: { mergeWithLastSubmission?: boolean }): Promise<void>;
    interactionResult(req: IncomingMessage, res: ServerResponse, result: Record<string, any>, options?: { mergeWithLastSubmission?: boolean }): Promise<string>;
    [model: string]: any;
  }

  export const errors: Record<string, new (description?: string, detail?: string) => Error & { status: number; error: string }>;
}
