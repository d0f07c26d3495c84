import { defineElement } from '../../shared/define.ts';
import { LoyaltyLauncher } from './loyalty-launcher.ts';

defineElement('loyalty-launcher', LoyaltyLauncher);

export { LoyaltyLauncher };
export type {
  LauncherCloseDetail,
  LauncherCloseReason,
  LauncherOpenDetail,
  LauncherOpenTrigger,
  LauncherSection,
  LauncherSectionDetail,
} from './events.ts';

declare global {
  interface HTMLElementTagNameMap {
    'loyalty-launcher': LoyaltyLauncher;
  }
}
