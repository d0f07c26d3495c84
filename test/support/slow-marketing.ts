/**
 * A slow Marketing API: the real sandbox behind a front that holds every mutation (a coupon mint) for
 * `mintDelayMs` (changeable) before forwarding it, and answers it with what the sandbox answered; with
 * `Infinity` a mint is never forwarded nor answered (the caller gives up, and nothing is minted). Queries pass at
 * once. It records each coupon code the sandbox minted, so a test can tell which coupon a shopper got.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SlowMarketing {
  /** The GraphQL endpoint to give the proxy as its upstream. */
  url: string;
  /** The codes the sandbox minted behind this front, in order. */
  minted: string[];
  /** Resolves when the next mint the sandbox answered has been passed on. */
  nextMint(): Promise<string>;
  /** How long mints are held from now on. */
  setMintDelay(ms: number): void;
  /**
   * The next mint's answer is held after the sandbox minted (`minted` resolves with its code) until
   * `release()`: the moment between a mint and its recording.
   */
  holdNextMint(): { minted: Promise<string>; release(): void };
  close(): Promise<void>;
}

export async function startSlowMarketing(upstreamUrl: string, mintDelayMs: number): Promise<SlowMarketing> {
  const minted: string[] = [];
  let delay = mintDelayMs;
  let waiting: ((code: string) => void)[] = [];
  let held: { minted: (code: string) => void; released: Promise<void> } | undefined;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let query = '';
      try {
        query = String((JSON.parse(body) as { query?: unknown }).query ?? '');
      } catch {
        // not JSON: forwarded as it is, for the sandbox to refuse
      }
      const isMint = /^\s*mutation\b/.test(query);
      const forward = async () => {
        const answer = await fetch(upstreamUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': String(req.headers['x-api-key'] ?? '') },
          body,
        });
        const text = await answer.text();
        const code = isMint ? /"code"\s*:\s*"([^"]+)"/.exec(text)?.[1] : undefined;
        if (code) {
          minted.push(code);
          for (const resolve of waiting) resolve(code);
          waiting = [];
          const hold = held;
          held = undefined;
          if (hold) {
            hold.minted(code);
            await hold.released;
          }
        }
        if (!res.destroyed) res.writeHead(answer.status, { 'content-type': 'application/json' }).end(text);
      };
      // Held until the caller gives up (or the front closes): the upstream never answers, nor mints.
      if (isMint && delay === Infinity) return;
      setTimeout(() => void forward().catch(() => res.destroy()), isMint ? delay : 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/graphql`,
    minted,
    nextMint: () => new Promise((resolve) => waiting.push(resolve)),
    setMintDelay: (ms) => void (delay = ms),
    holdNextMint: () => {
      let release = () => {};
      let resolveMinted = (_code: string) => {};
      const minted = new Promise<string>((resolve) => (resolveMinted = resolve));
      held = { minted: resolveMinted, released: new Promise<void>((resolve) => (release = resolve)) };
      return { minted, release };
    },
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
