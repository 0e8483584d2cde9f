// Command line entry of the sandbox (`npm run sandbox -- --port N --speed N --clock real|manual --seed N
// --rate-limit N`): parses
// arguments, starts the server, prints the one listening line, and stops on SIGINT/SIGTERM or when a parent
// process that forked it goes away.
import { startSandbox, type StartOptions } from './http/server';

function parseArguments(argv: string[]): StartOptions {
  const options: StartOptions = {};
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index];
    const [flag, inline] = argument.split('=', 2);
    const value = inline ?? argv[++index];
    const number = Number(value);
    switch (flag) {
      case '--port':
        if (!Number.isInteger(number) || number < 0 || number > 65535)
          throw new Error(`--port needs an integer 0-65535, got ${value}`);
        options.port = number;
        break;
      case '--speed':
        if (!(number > 0)) throw new Error(`--speed needs a positive number, got ${value}`);
        options.speed = number;
        break;
      case '--clock':
        if (value !== 'real' && value !== 'manual') throw new Error(`--clock needs real or manual, got ${value}`);
        options.clock = value;
        break;
      case '--rate-limit':
        if (!(number > 0)) throw new Error(`--rate-limit needs a positive number of requests per second, got ${value}`);
        options.rateLimitPerSecond = number;
        break;
      case '--seed':
        if (!Number.isInteger(number)) throw new Error(`--seed needs an integer, got ${value}`);
        options.seed = number;
        break;
      default:
        throw new Error(`Unknown argument ${argument}; use --port, --speed, --clock, --seed, --rate-limit`);
    }
  }
  return options;
}

async function main(): Promise<void> {
  const running = await startSandbox(parseArguments(process.argv.slice(2)));
  process.stdout.write(`sandbox listening on ${running.url}\n`);
  const stop = (): void => {
    void running.close().finally(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  if (process.send) process.on('disconnect', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`sandbox failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
