/** What `<coupon-claim>` shows, as plain render functions of what they show; the element decides which. */
import { html, nothing, type TemplateResult } from 'lit';
import type { Campaign } from '../../marketing/types.ts';
import type { LocaleController } from '../../shared/i18n.ts';

/** The campaign's title and its price (a coupon campaign's, formatted), unless `compact`. */
export function renderHeading(campaign: Campaign, price: string): TemplateResult {
  return html`<p part="title" class="title" dir="auto">${campaign.title}</p>
    ${price ? html`<p part="price" class="price">${price}</p>` : nothing}`;
}

/** The received code, its copy button and (with `allow-multiple`) the way to another one. */
export function renderCoupon(
  locale: LocaleController,
  code: string,
  options: { copyFailed: boolean; copy: () => void; another: (() => void) | undefined },
): TemplateResult {
  return html`<div part="coupon" class="coupon">
    <span class="code-label">${locale.t('coupon.codeLabel')}</span>
    <strong part="code" class="code">${code}</strong>
    <button part="copy-button" class="button" type="button" @click=${options.copy}>${locale.t('coupon.copy')}</button>
    ${
      options.another
        ? html`<button part="another-button" class="button secondary" type="button" @click=${options.another}>
          ${locale.t('coupon.another')}
        </button>`
        : nothing
    }
    ${options.copyFailed ? html`<p part="message">${locale.t('coupon.copyFailed')}</p>` : nothing}
  </div>`;
}

/**
 * The way to sign in first: the proxy's refusal when there was one (`refusal`), the button, and a note
 * when the page has no sign-in button to ask.
 */
export function renderSignInPrompt(
  locale: LocaleController,
  options: { refusal: string | undefined; noSignInButton: boolean; signIn: () => void },
): TemplateResult {
  return html`${options.refusal === undefined ? nothing : html`<p part="message" role="alert">${options.refusal}</p>`}
    <button part="signin-button" class="button" type="button" @click=${options.signIn}>${locale.t('coupon.signin')}</button>
    ${options.noSignInButton ? html`<p part="message">${locale.t('coupon.signinMissing')}</p>` : nothing}`;
}

/** "Get coupon", or "Getting your coupon…" (still focusable, `aria-disabled`) while a claim runs. */
export function renderClaimButton(locale: LocaleController, claiming: boolean, claim: () => void): TemplateResult {
  return html`<button
    part="claim-button"
    class="button"
    type="button"
    aria-disabled=${claiming ? 'true' : 'false'}
    @click=${claim}
  >
    ${locale.t(claiming ? 'coupon.getting' : 'coupon.get')}
  </button>`;
}

/**
 * Copies the code to the clipboard; where there is none (an insecure page, permission refused) it
 * selects the code's text so the shopper can copy it, and says false.
 */
export async function copyOrSelect(code: string, codeElement: Element | null): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(code);
    return true;
  } catch {
    const selection = getSelection();
    if (codeElement && selection) selection.selectAllChildren(codeElement);
    return false;
  }
}
