/**
 * Prometheus Alertmanager for the real-client test (apps/api/test/alertmanager-client.e2e-spec.ts):
 * Debian's `prometheus-alertmanager` package, installed when missing (tools/test/debian-binary.ts).
 * tools/test/run.ts ensures it once and hands the path to the test as ALERTMANAGER_BIN.
 */
import type { TestBinary } from './debian-binary';

export const ALERTMANAGER: TestBinary = {
  test: 'alertmanager-client.e2e-spec.ts',
  label: 'alertmanager',
  package: 'prometheus-alertmanager',
  names: ['prometheus-alertmanager', 'alertmanager'],
  paths: ['/usr/bin/prometheus-alertmanager'],
  envVar: 'ALERTMANAGER_BIN',
  versionArgs: ['--version'],
};
