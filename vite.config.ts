import { defineConfig, type Plugin } from 'vite';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('.', import.meta.url));
const elementTags = readdirSync(new URL('./src/elements', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * Mounts the Marketing proxy at /api/marketing on the demo's dev server, the way a merchant mounts it
 * on their own server: the API key is read on the server side only.
 */
function marketingProxy(): Plugin {
  return {
    name: 'loyalty-marketing-proxy',
    async configureServer(server) {
      const { createMarketingProxy } = await import('./src/proxy/index.ts');
      const { toNodeHandler } = await import('./src/proxy/node.ts');
      const marketingPort = process.env.MARKETING_PORT ?? '4002';
      const handler = createMarketingProxy({
        upstreamUrl: process.env.MARKETING_API_URL ?? `http://localhost:${marketingPort}/graphql`,
        apiKey: process.env.MARKETING_API_KEY ?? process.env.SANDBOX_API_KEY ?? 'sandbox-api-key',
      });
      server.middlewares.use('/api/marketing', toNodeHandler(handler, { basePath: '/api/marketing' }));
    },
  };
}

export default defineConfig(({ command }) =>
  command === 'serve'
    ? {
        root: 'demo',
        server: { port: Number(process.env.DEMO_PORT ?? 5173), strictPort: true },
        plugins: [marketingProxy()],
      }
    : {
        root,
        publicDir: false,
        build: {
          outDir: 'dist',
          emptyOutDir: true,
          target: 'es2022',
          sourcemap: true,
          lib: {
            formats: ['es'],
            entry: {
              'loyalty-widgets': 'src/index.ts',
              connect: 'src/connect/index.ts',
              marketing: 'src/marketing/index.ts',
              ...Object.fromEntries(elementTags.map((tag) => [`elements/${tag}`, `src/elements/${tag}/index.ts`])),
            },
          },
          rollupOptions: {
            output: { chunkFileNames: 'chunks/[name]-[hash].js' },
          },
        },
      },
);
