/**
 * Prometheus Alertmanager for the real-client test (apps/api/test/alertmanager-client.e2e-spec.ts):
 * Debian's `prometheus-alertmanager` package, installed when missing (tools/test/debian-binary.ts).
 * tools/test/run.ts calls `ensureAlertmanager` once and hands the path to the test as ALERTMANAGER_BIN.
 */
import { ensureDebianBinary, type Log } from './debian-binary';

/** The test file that needs the binary (run.ts installs only when it is selected). */
export const ALERTMANAGER_TEST = 'alertmanager-client.e2e-spec.ts';

const defaultLog: Log = (line) => process.stderr.write(`[alertmanager] ${line}\n`);

export function ensureAlertmanager(log: Log = defaultLog): string | null {
  return ensureDebianBinary(
    { package: 'prometheus-alertmanager', names: ['prometheus-alertmanager', 'alertmanager'], paths: ['/usr/bin/prometheus-alertmanager'], envVar: 'ALERTMANAGER_BIN', versionArgs: ['--version'] },
    log,
  );
}
