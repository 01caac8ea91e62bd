/** The webhook dispatcher alone (one Kubernetes Deployment). The api app migrates the schema. */
import 'reflect-metadata';
import { runProcess } from '@taproot/runtime';
import { startDispatcher } from './start-dispatcher';

void runProcess({ migrations: [], apps: [startDispatcher] });
