import { defineElement } from '../../shared/define.ts';
import { BusinessDirectory } from './business-directory.ts';

export { BusinessDirectory };
export type { MarketingElement } from '../internal/marketing-element.ts';
export type { LoyaltyElement } from '../internal/loyalty-element.ts';

defineElement('business-directory', BusinessDirectory);

declare global {
  interface HTMLElementTagNameMap {
    'business-directory': BusinessDirectory;
  }
}
