/** `loyalty-widgets/proxy/deno`: the store in Deno KV (see stores/deno-kv.ts). */
export * from './stores/deno-kv.ts';
