import { DomainError, INVALID_ATTRIBUTE, type ErrorTable } from '@taproot/json-api';

/** The webhooks context's refusals; the exception filter answers them by WEBHOOKS_ERRORS. */
export enum WebhooksErrorCode {
  EndpointDisabled = 'WEBHOOK_ENDPOINT_DISABLED',
  SecretInUse = 'SECRET_IN_USE',
  // Attribute-level refusals (422 `Invalid attribute`, one error per attribute: JsonApiError.invalidAttributes).
  InvalidUrl = 'INVALID_URL',
  InvalidHeader = 'INVALID_HEADER',
  ReservedHeader = 'RESERVED_HEADER',
  UnknownSecret = 'UNKNOWN_SECRET',
  InvalidSecret = 'INVALID_SECRET',
  NameTaken = 'NAME_TAKEN',
  UnsupportedSecretKind = 'UNSUPPORTED_SECRET_KIND',
}

export const WEBHOOKS_ERRORS: ErrorTable<WebhooksErrorCode> = {
  [WebhooksErrorCode.EndpointDisabled]: { status: 422, title: 'Endpoint disabled' },
  [WebhooksErrorCode.SecretInUse]: { status: 422, title: 'Secret in use' },
  [WebhooksErrorCode.InvalidUrl]: INVALID_ATTRIBUTE,
  [WebhooksErrorCode.InvalidHeader]: INVALID_ATTRIBUTE,
  [WebhooksErrorCode.ReservedHeader]: INVALID_ATTRIBUTE,
  [WebhooksErrorCode.UnknownSecret]: INVALID_ATTRIBUTE,
  [WebhooksErrorCode.InvalidSecret]: INVALID_ATTRIBUTE,
  [WebhooksErrorCode.NameTaken]: INVALID_ATTRIBUTE,
  [WebhooksErrorCode.UnsupportedSecretKind]: INVALID_ATTRIBUTE,
};

export class WebhooksError extends DomainError<WebhooksErrorCode> {}

/** One attribute-level refusal, for `JsonApiError.invalidAttributes`. */
export interface Problem {
  /** Pointer below `/data/attributes/`, e.g. `custom_headers/0/value`. */
  attribute: string;
  detail: string;
  code: WebhooksErrorCode;
}
