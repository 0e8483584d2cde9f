// `npm start`: builds (done by the npm script), starts the sandbox in a child process, loads dist/Code.js into the
// emulator with the demo spreadsheet, and serves the playground page until Ctrl+C.
import { spawnSandbox } from '../sandbox/spawn';
import { startPlayground } from './server';

async function main(): Promise<void> {
  const port = Number(process.env.PORT ?? 8080);
  const sandbox = await spawnSandbox({ clock: 'real' });
  console.log(`sandbox listening on ${sandbox.url}`);
  const playground = await startPlayground({ sandboxUrl: sandbox.url, port });
  console.log(`Sheet Scout playground: ${playground.url}  (account sandbox-pro; Ctrl+C to stop)`);
  const stop = async () => {
    await playground.close();
    await sandbox.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
