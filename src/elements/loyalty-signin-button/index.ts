import { defineElement } from '../../shared/define.ts';
import { LoyaltySigninButton } from './loyalty-signin-button.ts';

defineElement('loyalty-signin-button', LoyaltySigninButton);

export { LoyaltySigninButton };
export type { LoyaltySigninDetail, LoyaltySigninErrorDetail, LoyaltySignoutDetail } from './events.ts';

declare global {
  interface HTMLElementTagNameMap {
    'loyalty-signin-button': LoyaltySigninButton;
  }
}
