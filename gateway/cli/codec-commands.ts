/**
 * `logbook codec-server`: runs the codec endpoint (`POST /codec/encode`, `/codec/decode`) over a
 * development key directory, for the UI and the CLI to show encrypted payloads decoded. The
 * operator runs it apart from the engine, which never holds a key.
 * @module
 */
import { Command, InvalidArgumentError } from 'commander';
import { createCodecServer, EncryptionCodec, FileKeyStore } from '../../sdk/encryption/index.js';

function portOf(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new InvalidArgumentError('a port is a whole number from 0 to 65535');
  return port;
}

/** `codec-server`: serves until SIGINT or SIGTERM. */
export function codecCommand(): Command {
  return new Command('codec-server')
    .description('serve the codec endpoint (POST /codec/encode, /codec/decode) over a key directory, behind a bearer token')
    .requiredOption('--keys <dir>', 'the key directory (FileKeyStore; created on demand, files 0600)')
    .option('--port <n>', 'the port to listen on', portOf, 8888)
    .option('--host <host>', 'the address to listen on', '127.0.0.1')
    .option('--token <t>', 'the bearer token callers must send (default LOGBOOK_CODEC_TOKEN)')
    .option('--allow-origin <url>', 'the browser origin allowed to call (the UI\'s), for CORS')
    .action(async (options: { keys: string; port: number; host: string; token?: string; allowOrigin?: string }) => {
      const token = options.token ?? process.env.LOGBOOK_CODEC_TOKEN;
      if (!token) throw new InvalidArgumentError('the codec server needs --token or LOGBOOK_CODEC_TOKEN');
      const codec = new EncryptionCodec({ keys: new FileKeyStore({ directory: options.keys }) });
      const server = createCodecServer({ codecs: [codec], token, ...(options.allowOrigin ? { allowOrigin: options.allowOrigin } : {}) });
      await new Promise<void>((ready, fail) => server.once('error', fail).listen(options.port, options.host, ready));
      const { port } = server.address() as { port: number };
      console.log(`codec endpoint on http://${options.host}:${port}/codec (keys in ${options.keys})`);
      await new Promise<void>((stop) => {
        for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => server.close(() => stop()));
      });
    });
}
