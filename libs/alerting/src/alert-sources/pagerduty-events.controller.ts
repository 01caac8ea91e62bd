import { Body, Controller, HttpCode, Post, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { OwnRateLimit, Public } from '@taproot/auth';
import { EnqueuePagerDutyEventCommand, type PagerDutyAnswer, type PagerDutyRoute } from './enqueue-pagerduty-event/enqueue-pagerduty-event.command';

/** The part of Fastify's reply the controller sets: PagerDuty answers 202 or 400 with its own bodies. */
interface Reply {
  status(code: number): unknown;
}

/**
 * PagerDuty Events API v2, for monitoring tools that can only send that (docs/pagerduty-events.md):
 * `POST /v2/enqueue` (trigger, acknowledge, resolve) and `POST /v2/change/enqueue` (change events).
 * No bearer token: the body's `routing_key`, an alert source's secret, authenticates the sender.
 * Answers PagerDuty's plain JSON bodies, not JSON:API documents.
 */
@Public()
@OwnRateLimit()
@Controller('v2')
export class PagerDutyEventsController {
  constructor(private readonly commands: CommandBus) {}

  @Post('enqueue')
  @HttpCode(202)
  enqueue(@Body() body: unknown, @Res({ passthrough: true }) reply: Reply): Promise<PagerDutyAnswer['body']> {
    return this.answer('alert', body, reply);
  }

  @Post('change/enqueue')
  @HttpCode(202)
  enqueueChange(@Body() body: unknown, @Res({ passthrough: true }) reply: Reply): Promise<PagerDutyAnswer['body']> {
    return this.answer('change', body, reply);
  }

  private async answer(route: PagerDutyRoute, body: unknown, reply: Reply): Promise<PagerDutyAnswer['body']> {
    const answer: PagerDutyAnswer = await this.commands.execute(new EnqueuePagerDutyEventCommand(route, body));
    reply.status(answer.status);
    return answer.body;
  }
}
