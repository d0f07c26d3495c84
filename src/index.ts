/**
 * The script-tag entry: `<script type="module" src=".../loyalty-widgets.js">` defines every element.
 * Loading it twice is harmless: each definition is skipped when its tag is already defined.
 */
export {};
import './elements/loyalty-signin-button/index.ts';
import './elements/campaign-carousel/index.ts';
import './elements/coupon-claim/index.ts';
import './elements/business-directory/index.ts';
