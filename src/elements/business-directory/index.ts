import { defineElement } from '../../shared/define.ts';
import { BusinessDirectory } from './business-directory.ts';

export { BusinessDirectory };

defineElement('business-directory', BusinessDirectory);

declare global {
  interface HTMLElementTagNameMap {
    'business-directory': BusinessDirectory;
  }
}
