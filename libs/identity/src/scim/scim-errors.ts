import { Catch, HttpException, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { RateLimitExceededError } from '@taproot/auth';
import { DomainError, JsonApiError } from '@taproot/json-api';
import { ScimError as PatchError } from 'scim-patch';
import { IDENTITY_ERRORS, IdentityErrorCode } from '../errors';

export const SCIM_MEDIA_TYPE = 'application/scim+json';
export const SCIM_ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** RFC 7644 §3.12's `scimType` values Taproot answers with. */
export type ScimType = 'invalidFilter' | 'uniqueness' | 'invalidSyntax' | 'invalidPath' | 'noTarget' | 'invalidValue' | 'mutability' | 'tooMany';

/** A refusal in SCIM's terms (RFC 7644 §3.12): the status, a detail naming the field, and `scimType` for a 400 or 409. */
export class ScimError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly scimType?: ScimType,
  ) {
    super(detail);
    this.name = 'ScimError';
  }

  static invalidValue(detail: string): ScimError {
    return new ScimError(400, detail, 'invalidValue');
  }

  static notFound(resourceType: string, id: string): ScimError {
    return new ScimError(404, `No ${resourceType} with id ${id}`);
  }
}

/** A 400's or 409's `scimType` from the identity context's code (a taken e-mail is `uniqueness`). */
const SCIM_TYPES: Partial<Record<string, ScimType>> = {
  [IdentityErrorCode.UserTaken]: 'uniqueness',
  [IdentityErrorCode.Taken]: 'uniqueness',
  [IdentityErrorCode.UnknownUser]: 'invalidValue',
};

/** What any error thrown on the SCIM routes is in SCIM's terms; the commands' refusals keep their detail. */
export function toScimError(error: unknown): ScimError {
  if (error instanceof ScimError) return error;
  // scim-patch's refusals: a path that names nothing, an op it cannot apply.
  if (error instanceof PatchError) return new ScimError(400, error.message, error.scimCode === 'noTarget' ? 'noTarget' : 'invalidPath');
  if (error instanceof DomainError) {
    const status = (IDENTITY_ERRORS as Record<string, { status: number }>)[error.code]?.status ?? 400;
    // A JSON:API 422 (an attribute the command refused) is SCIM's 400 invalidValue.
    return new ScimError(status === 422 ? 400 : status, error.detail, SCIM_TYPES[error.code] ?? (status === 422 ? 'invalidValue' : undefined));
  }
  if (error instanceof JsonApiError) {
    const [first] = error.errors;
    const status = error.status === 422 ? 400 : error.status;
    return new ScimError(status, error.errors.map((e) => e.detail ?? e.title).join('; '), SCIM_TYPES[first?.code ?? ''] ?? (status === 400 ? 'invalidValue' : undefined));
  }
  if (error instanceof RateLimitExceededError) return new ScimError(429, error.message);
  if (error instanceof HttpException) {
    const status = error.getStatus();
    return new ScimError(status, error.message, status === 400 ? 'invalidSyntax' : undefined);
  }
  return new ScimError(500, 'Internal server error');
}

/** The SCIM error document (RFC 7644 §3.12): `status` is a string, `scimType` only when there is one. */
export function scimErrorBody(error: ScimError): Record<string, unknown> {
  return { schemas: [SCIM_ERROR_SCHEMA], status: String(error.status), ...(error.scimType ? { scimType: error.scimType } : {}), detail: error.detail };
}

interface Reply {
  status(code: number): Reply;
  header(name: string, value: string): Reply;
  send(body: unknown): void;
}

/**
 * Every refusal on the SCIM routes, whoever throws it (the token guard, the commands, the api's
 * global guards such as the rate limit), answered as a SCIM error instead of a JSON:API one.
 */
@Catch()
export class ScimExceptionFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const error = toScimError(exception);
    const reply = host.switchToHttp().getResponse<Reply>();
    const headers = exception instanceof JsonApiError || exception instanceof RateLimitExceededError ? exception.headers : {};
    for (const [name, value] of Object.entries(headers)) reply.header(name, value);
    if (error.status === 401) reply.header('WWW-Authenticate', 'Bearer realm="taproot-scim"');
    reply.status(error.status).header('content-type', SCIM_MEDIA_TYPE).send(scimErrorBody(error));
  }
}
