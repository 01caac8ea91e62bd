import { Controller, Get, Query } from '@nestjs/common';
import { RequirePermission } from '@taproot/auth';
import { JsonApiError } from '@taproot/json-api';
import { LIVE_CALL_COUNTRIES, LIVE_CALL_PHONE_TYPES } from './live-call-router.schema';
import { generatePhoneNumber } from './phone-numbers';

const oneOf = <T extends string>(values: readonly T[], value: unknown, name: string): T => {
  if (typeof value === 'string' && (values as readonly string[]).includes(value)) return value as T;
  throw JsonApiError.of(422, 'Invalid query parameter', `${name} is required, one of ${values.join(', ')} (got ${JSON.stringify(value ?? null)})`, 'INVALID_QUERY_PARAMETER', { parameter: name });
};

/**
 * `GET /v1/live_call_routers/generate_phone_number`: a number to register a router with. Taproot
 * rents no numbers and places no calls (docs/live-call-routers.md): the number is fictional, in the
 * country's format, for the router's configuration.
 */
@Controller('v1/live_call_routers')
export class LiveCallRouterPhoneNumbersController {
  @Get('generate_phone_number')
  @RequirePermission('live_call_routing', 'create')
  generate(@Query('country_code') country: unknown, @Query('phone_type') type: unknown) {
    const countryCode = oneOf(LIVE_CALL_COUNTRIES, country, 'country_code');
    const phoneType = oneOf(LIVE_CALL_PHONE_TYPES, type, 'phone_type');
    const phoneNumber = generatePhoneNumber(countryCode, phoneType);
    return { data: { id: phoneNumber, type: 'phone_numbers', attributes: { phone_number: phoneNumber, country_code: countryCode, phone_type: phoneType } } };
  }
}
