/**
 * Starts a real, throwaway `redis-server` on a free loopback port (no persistence, unless given a
 * folder for an append-only file fsynced on every write) for the Redis store tests, and stops or
 * kills it. A missing redis-server is an error, not a skip: CI installs it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RunningRedis {
  url: string;
  port: number;
  stop(): Promise<void>;
  /** SIGKILL, as a crash: nothing is saved beyond what the append-only file already holds. */
  kill(): Promise<void>;
}

export interface RedisSettings {
  /** The port to listen on (e.g. the one a killed server had); a free one by default. */
  port?: number;
  /** Keep the data in an append-only file in this folder, fsynced on every write. */
  appendOnlyDir?: string;
  /** With `appendOnlyDir`: false keeps only the cluster's nodes.conf there, no data. */
  appendOnly?: boolean;
  /** A cluster node (`--cluster-enabled yes`), its nodes.conf in `appendOnlyDir`. */
  cluster?: boolean;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

function waitUntilReady(child: ChildProcess, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => fail(new Error(`redis-server on port ${port} was not ready within 10 s:\n${output}`)),
      10_000,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) done();
    };
    const onExit = (code: number | null) =>
      fail(new Error(`redis-server exited (code ${code}) before it was ready:\n${output}`));
    const cleanup = () => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
    };
    const done = () => {
      cleanup();
      resolve();
    };
    const fail = (error: Error) => {
      cleanup();
      reject(error);
    };
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
  });
}

export async function startRedis(settings: RedisSettings = {}): Promise<RunningRedis> {
  const binary = process.env.REDIS_SERVER ?? 'redis-server';
  if (spawnSync(binary, ['--version']).error) {
    throw new Error(
      `${binary} is not installed or not on PATH; the Redis store tests need a real Redis ` +
        '(Debian: apt-get install redis-server; .ci/run installs it).',
    );
  }
  let lastError: unknown;
  const persistence = settings.appendOnlyDir
    ? settings.appendOnly === false
      ? ['--appendonly', 'no', '--dir', settings.appendOnlyDir]
      : ['--appendonly', 'yes', '--appendfsync', 'always', '--dir', settings.appendOnlyDir]
    : ['--appendonly', 'no'];
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const port = settings.port ?? (await freePort());
    const cluster = settings.cluster
      ? ['--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf', '--cluster-node-timeout', '5000']
      : [];
    const child = spawn(
      binary,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...persistence, ...cluster],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    try {
      await waitUntilReady(child, port);
    } catch (error) {
      lastError = error; // most likely the port was taken between our check and redis binding it
      child.kill('SIGKILL');
      continue;
    }
    child.stdout?.resume();
    child.stderr?.resume();
    const end = (signal: NodeJS.Signals) =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill(signal);
      });
    return { url: `redis://127.0.0.1:${port}`, port, stop: () => end('SIGTERM'), kill: () => end('SIGKILL') };
  }
  throw lastError;
}

/** One command a Redis ran, as MONITOR shows it: sent by a client (a round trip) or run by a script. */
export interface SeenCommand {
  byScript: boolean;
  /** Lower case, e.g. `evalsha`, `set`. */
  name: string;
  /** The client's address, for a command a client sent. */
  client?: string;
}

/**
 * Watches every command a Redis runs (MONITOR), for counting a request's round trips: `take()` returns
 * what was seen since the last call, after a PING of its own has come through (so nothing is in flight).
 */
export async function watchCommands(url: string): Promise<{ take(): Promise<SeenCommand[]>; stop(): Promise<void> }> {
  const { createClient } = await import('redis');
  const monitor = createClient({ url });
  const pinger = createClient({ url });
  await Promise.all([monitor.connect(), pinger.connect()]);
  let seen: SeenCommand[] = [];
  let marker: (() => void) | undefined;
  await monitor.monitor((line: string) => {
    const match = /^[\d.]+ \[\d+ ([^\]]+)\] "([^"]+)"(?: "([^"]*)")?/.exec(line);
    if (!match) return;
    const [, source, name, argument] = match;
    if (name!.toLowerCase() === 'echo' && argument === 'watch-commands-marker') return marker?.();
    seen.push({
      byScript: source === 'lua',
      name: name!.toLowerCase(),
      ...(source === 'lua' ? {} : { client: source }),
    });
  });
  return {
    async take() {
      const through = new Promise<void>((resolve) => (marker = resolve));
      await pinger.echo('watch-commands-marker');
      await through;
      const taken = seen;
      seen = [];
      return taken;
    },
    async stop() {
      await Promise.all([monitor.close(), pinger.close()]);
    },
  };
}

export interface RunningCluster {
  /** The first node's URL: what a merchant would put in REDIS_URL. */
  url: string;
  nodes: RunningRedis[];
  /** The node that serves `key`'s hash slot now. */
  nodeOf(key: string): Promise<RunningRedis>;
  /**
   * Starts a killed node again on its port with its cluster configuration, and with its data (its
   * append-only file) or without it.
   */
  restart(node: RunningRedis, withData: boolean): Promise<RunningRedis>;
  stop(): Promise<void>;
}

/**
 * A real three-master Redis Cluster on free loopback ports (each node's nodes.conf and append-only
 * file, fsynced on every write unless `appendOnly: false`, in a folder of its own), made with `redis-cli --cluster create`;
 * resolves once every node says `cluster_state:ok`.
 */
export async function startRedisCluster(options: { appendOnly?: boolean } = {}): Promise<RunningCluster> {
  const dirs: string[] = [];
  const dirOf = new Map<number, string>();
  const startNode = async (port?: number, dir = mkdtempSync(join(tmpdir(), 'redis-cluster-'))) => {
    dirs.push(dir);
    const node = await startRedis({ appendOnlyDir: dir, cluster: true, ...options, ...(port ? { port } : {}) });
    dirOf.set(node.port, dir);
    return node;
  };
  const nodes = await Promise.all([startNode(), startNode(), startNode()]);
  const cli = (...args: string[]) => {
    const result = spawnSync(process.env.REDIS_CLI ?? 'redis-cli', args, { encoding: 'utf8', timeout: 30_000 });
    if (result.status !== 0) throw new Error(`redis-cli ${args.join(' ')}: ${result.stdout}${result.stderr}`);
    return result.stdout;
  };
  cli(
    '--cluster',
    'create',
    ...nodes.map((node) => `127.0.0.1:${node.port}`),
    '--cluster-replicas',
    '0',
    '--cluster-yes',
  );
  const allOk = async () => {
    for (let attempt = 0; attempt < 200; attempt += 1) {
      if (nodes.every((node) => /cluster_state:ok/.test(cli('-p', String(node.port), 'cluster', 'info')))) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the Redis Cluster did not reach cluster_state:ok');
  };
  await allOk();
  return {
    url: nodes[0]!.url,
    nodes,
    async nodeOf(key) {
      const slot = cli('-p', String(nodes[0]!.port), 'cluster', 'keyslot', key).trim();
      const shards = cli('-p', String(nodes[0]!.port), 'cluster', 'nodes');
      for (const line of shards.split('\n')) {
        const [, address, , , , , , , ...ranges] = line.split(' ');
        const port = Number(/:(\d+)@/.exec(address ?? '')?.[1]);
        for (const range of ranges) {
          const [from, to = from] = range.split('-').map(Number);
          if (Number(slot) >= from! && Number(slot) <= to!) return nodes.find((node) => node.port === port)!;
        }
      }
      throw new Error(`no node serves slot ${slot}`);
    },
    async restart(node, withData) {
      let dir = dirOf.get(node.port)!;
      if (!withData) {
        const fresh = mkdtempSync(join(tmpdir(), 'redis-cluster-'));
        copyFileSync(join(dir, 'nodes.conf'), join(fresh, 'nodes.conf'));
        dir = fresh;
      }
      const started = await startNode(node.port, dir);
      nodes[nodes.indexOf(node)] = started;
      await allOk();
      return started;
    },
    async stop() {
      await Promise.all(nodes.map((node) => node.stop()));
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A relay in front of one Redis that can hold what clients send, from a command on, until released. */
export interface HoldingRelay {
  /** The relay's URL, for the client under test. */
  url: string;
  /** Resolves when a client sent the command and everything it sends from then on is held. */
  holding: Promise<void>;
  /** Lets what was held, and everything after it, through. */
  release(): void;
  close(): Promise<void>;
}

/**
 * A TCP relay to `target` that holds what clients send from the first `command` on (e.g. `INFO`, the
 * store's first question to a server) until `release()`: the client sees a connected server that has
 * not answered yet, for as long as the test needs.
 */
export async function holdingRelay(target: RunningRedis, command: string): Promise<HoldingRelay> {
  const marker = `$${command.length}\r\n${command}\r\n`;
  /** What was held, in order; undefined before the command came and once released. */
  let held: Array<() => void> | undefined;
  let released = false;
  let startHolding!: () => void;
  const holding = new Promise<void>((resolve) => (startHolding = resolve));
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(target.port, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => client.destroy());
      socket.on('close', () => (client.destroy(), upstream.destroy()));
    }
    upstream.pipe(client);
    client.on('data', (chunk: Buffer) => {
      if (!held && !released && chunk.toString('latin1').toUpperCase().includes(marker)) {
        held = [];
        startHolding();
      }
      if (held) held.push(() => upstream.write(chunk));
      else upstream.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `redis://127.0.0.1:${port}`,
    holding,
    release() {
      const waiting = held ?? [];
      held = undefined;
      released = true;
      for (const send of waiting) send();
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
