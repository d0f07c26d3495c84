/** `loyalty-widgets/proxy/cloudflare`: the store in a Cloudflare Durable Object (see stores/cloudflare.ts). */
export * from './stores/cloudflare.ts';
