import { Controller, Get, Inject } from '@nestjs/common';
import { TAPROOT_CONFIG, type TaprootConfig } from '@taproot/config';
import { ipRangesOf } from './ip-ranges';

/**
 * `GET /v1/ip_ranges`: where Taproot's outgoing requests come from, for receivers that allow-list
 * senders. Any authenticated caller may read it (it is the install's, not an organization's); the
 * ranges are the operator's `EGRESS_IP_RANGES` (docs/ip-ranges.md).
 */
@Controller('v1/ip_ranges')
export class IpRangesController {
  constructor(@Inject(TAPROOT_CONFIG) private readonly config: TaprootConfig) {}

  @Get()
  get() {
    return { data: { id: 'ip_ranges', type: 'ip_ranges', attributes: ipRangesOf(this.config.egressIpRanges) } };
  }
}
