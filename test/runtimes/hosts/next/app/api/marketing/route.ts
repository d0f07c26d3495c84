// A Next.js route handler, as the README shows. The proxy is created on its first request: `next build`
// loads this module without the key. (The suite builds this app in a merchant's project folder, beside options.mjs.)
import { createMarketingProxy } from 'loyalty-widgets/proxy';
import { proxyOptions } from '../../../options.mjs';

const marketing = createMarketingProxy(() => proxyOptions(process.env));

export const GET = marketing;
export const POST = marketing;
export const OPTIONS = marketing;
