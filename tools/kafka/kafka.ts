/**
 * npm run kafka -- fetch                 downloads the broker jars (Maven) into tools/kafka/.cache
 * npm run kafka -- start [--port N] [--data-dir D]
 *                                        runs a single-node broker until SIGINT/SIGTERM
 */
import { fetchKafka, kafkaVersion, startKafkaBroker } from './broker';

function usage(): never {
  process.stderr.write('usage: kafka fetch | kafka start [--port N] [--data-dir DIR]\n');
  process.exit(2);
}

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  if (i === -1) return undefined;
  const value = args[i + 1];
  if (value === undefined || value.startsWith('--')) usage();
  return value;
}

async function main(): Promise<void> {
  const [command, ...args] = process.argv.slice(2);
  if (command === 'fetch') {
    const lib = await fetchKafka();
    process.stdout.write(`Kafka ${kafkaVersion()} jars in ${lib}\n`);
    return;
  }
  if (command !== 'start') usage();

  const portArg = option(args, '--port');
  const port = portArg === undefined ? undefined : Number(portArg);
  if (port !== undefined && !(Number.isInteger(port) && port > 0 && port < 65536)) usage();
  const broker = await startKafkaBroker({ port, dataDir: option(args, '--data-dir') });
  process.stdout.write(`${broker.brokers.join(',')}\n`);

  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  process.stderr.write('[kafka] stopping...\n');
  await broker.stop();
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
