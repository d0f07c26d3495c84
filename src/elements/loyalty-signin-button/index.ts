import { defineElement } from '../../shared/define.ts';
import { LoyaltySigninButton } from './loyalty-signin-button.ts';

defineElement('loyalty-signin-button', LoyaltySigninButton);

export { LoyaltySigninButton };
export type { LoyaltySigninDetail, LoyaltySigninErrorDetail, LoyaltySignoutDetail } from './events.ts';
export type { LoyaltyElement } from '../internal/loyalty-element.ts';
export type { LoyaltyUser, SessionStorageKind } from '../../connect/session.ts';
export type { SignInMode } from '../../connect/launcher.ts';
export type { SignInErrorCode } from '../../connect/errors.ts';

declare global {
  interface HTMLElementTagNameMap {
    'loyalty-signin-button': LoyaltySigninButton;
  }
}
