/**
 * `npm run sandbox -- [command]`: runs the sandbox (Connect + Marketing) or manages its data folder.
 * Exit codes: 0 success, 1 the sandbox could not run (e.g. a port in use), 2 bad arguments.
 */
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { AppRegistry, checkRegistration, type RegisterAppInput } from './connect/apps.ts';
import { SEED_USERS } from './connect/users.ts';
import { KeyRing } from './keys.ts';
import { parseSeconds, resolveTokenLifetime, SANDBOX_FLAVORS, type SandboxFlavor } from './options.ts';
import { startSandbox } from './sandbox.ts';
import { resolveDataDir } from './store.ts';

const USAGE = `Usage: npm run sandbox -- [command] [options]

Commands:
  serve (default)   Start Connect and Marketing; print their URLs, the API key and the demo app id.
  register-app      Register an app and print it as JSON (app_id, app_secret, name, redirect_uris).
                      --name NAME              the app's name (required)
                      --redirect-uri URI       a redirect URI (required; repeat for several)
  add-key           Add a new signing key: it signs from now on, older keys stay in /jwks.
                    A running sandbox picks it up at once.

Options:
  --data-dir DIR    Where apps, users, keys, tokens and sessions persist (default .sandbox-data)
  --flavor NAME     Marketing flavour: default, or appsync (answers as AWS AppSync with Amplify resolvers)
  --token-lifetime SECONDS
                    How long Connect's access and ID tokens last (default 3600), e.g. 30 to try expiry
  -h, --help        Show this help

Environment: CONNECT_PORT (4001), MARKETING_PORT (4002), DEMO_PORT (5173), SANDBOX_API_KEY (sandbox-api-key),
             SANDBOX_FLAVOR (default), SANDBOX_TOKEN_LIFETIME (3600; --token-lifetime wins).
`;

export class UsageError extends Error {}

function parse(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        help: { type: 'boolean', short: 'h' },
        'data-dir': { type: 'string' },
        flavor: { type: 'string' },
        'token-lifetime': { type: 'string' },
        name: { type: 'string' },
        'redirect-uri': { type: 'string', multiple: true },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

async function serve(options: ServeOptions): Promise<number> {
  const { dataDir } = options;
  const sandbox = await startSandbox(options);
  const users = SEED_USERS.map((user) => `${user.username} / ${user.password}`).join(', ');
  console.log(`Loyalty sandbox is running (data in ${dataDir})
  Connect (OpenID issuer)  ${sandbox.connectUrl}
  Marketing GraphQL        ${sandbox.marketingUrl} (${sandbox.flavor} flavour)
  Marketing API key        ${sandbox.apiKey}
  Demo app client_id       ${sandbox.demoApp.app_id}
  Token lifetime           ${resolveTokenLifetime(options)} s
  Wallet users             ${users}
Press Ctrl+C to stop.`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await sandbox.close();
  return 0;
}

/** What `serve` passes to startSandbox; what is absent comes from the environment or the defaults. */
export interface ServeOptions {
  dataDir: string;
  flavor?: SandboxFlavor;
  tokenLifetimeSeconds?: number;
}

export type CliCommand =
  | { kind: 'help' }
  | ({ kind: 'serve' } & ServeOptions)
  | { kind: 'register-app'; dataDir: string; input: RegisterAppInput }
  | { kind: 'add-key'; dataDir: string };

/** Reads the command line; throws a UsageError (exit code 2) for anything it cannot run. */
export function parseCommand(argv: string[]): CliCommand {
  const { values, positionals } = parse(argv);
  if (values.help) return { kind: 'help' };
  if (positionals.length > 1) throw new UsageError(`Unexpected argument: ${positionals[1]}`);
  const command = positionals[0] ?? 'serve';
  const dataDir = resolveDataDir(values['data-dir']);
  if (command !== 'serve' && values.flavor !== undefined) throw new UsageError('--flavor belongs to serve');
  if (command !== 'serve' && values['token-lifetime'] !== undefined)
    throw new UsageError('--token-lifetime belongs to serve');
  if (values.flavor !== undefined && !SANDBOX_FLAVORS.includes(values.flavor as SandboxFlavor)) {
    throw new UsageError(`--flavor must be one of ${SANDBOX_FLAVORS.join(', ')}, got ${JSON.stringify(values.flavor)}`);
  }
  if (command !== 'register-app' && (values.name !== undefined || values['redirect-uri'] !== undefined)) {
    throw new UsageError('--name and --redirect-uri belong to register-app');
  }
  switch (command) {
    case 'serve': {
      const serve: CliCommand = { kind: command, dataDir };
      if (values.flavor !== undefined) serve.flavor = values.flavor as SandboxFlavor;
      const lifetime = values['token-lifetime'];
      if (lifetime !== undefined) {
        try {
          serve.tokenLifetimeSeconds = parseSeconds(lifetime, '--token-lifetime');
        } catch (error) {
          throw new UsageError((error as Error).message);
        }
      }
      return serve;
    }
    case 'add-key':
      return { kind: command, dataDir };
    case 'register-app': {
      if (values.name === undefined) throw new UsageError('register-app needs --name NAME');
      if (!values['redirect-uri']?.length) throw new UsageError('register-app needs at least one --redirect-uri URI');
      try {
        return {
          kind: command,
          dataDir,
          input: checkRegistration({ name: values.name, redirectUris: values['redirect-uri'] }),
        };
      } catch (error) {
        throw new UsageError((error as Error).message);
      }
    }
    default:
      throw new UsageError(`Unknown command: ${command}`);
  }
}

export async function main(argv: string[]): Promise<number> {
  const command = parseCommand(argv);
  switch (command.kind) {
    case 'help':
      console.log(USAGE);
      return 0;
    case 'serve':
      return serve(command);
    case 'register-app':
      console.log(JSON.stringify(new AppRegistry(command.dataDir).register(command.input), null, 2));
      return 0;
    case 'add-key': {
      const keys = new KeyRing(command.dataDir);
      await keys.ensureKey();
      const kid = await keys.addKey();
      console.log(JSON.stringify({ kid, published: keys.jwks().keys.map((key) => key.kid) }, null, 2));
      return 0;
    }
  }
}

// Run only when executed, not when imported (e.g. by a test).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      if (error instanceof UsageError) {
        console.error(`${error.message}\n\n${USAGE}`);
        process.exit(2);
      }
      const code = (error as NodeJS.ErrnoException).code;
      console.error(
        code === 'EADDRINUSE'
          ? `A sandbox port is already in use: ${(error as Error).message}. Stop the other process or set CONNECT_PORT / MARKETING_PORT.`
          : error,
      );
      process.exit(1);
    },
  );
}
