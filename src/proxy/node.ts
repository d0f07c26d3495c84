/** `loyalty-widgets/proxy/node`: the Fetch-API proxy as a Node request listener (see hosts/node.ts). */
export * from './hosts/node.ts';
