import { CreatePulseHandler } from './commands/create-pulse/create-pulse.handler';
import { UpdatePulseHandler } from './commands/update-pulse/update-pulse.handler';

/** Pulses (docs/pulses.md), registered with the incidents context. */
export { pulseDefinition, pulseSchema } from './pulse.schema';
export { PulsesController } from './pulses.controller';
export { PULSES_OPENAPI } from './pulses.openapi';
export const PULSE_HANDLERS = [CreatePulseHandler, UpdatePulseHandler];
