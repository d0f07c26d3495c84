/**
 * `<loyalty-launcher>`: the button opens its panel as a dialog (keyboard, focus in and back, Escape),
 * a modal sheet with the page inert on a phone, the `#loyalty` link, the events; the sign-in from
 * inside the panel (the scripted Connect provider), and a coupon claimed there listed until sign-out,
 * against the real proxy and sandbox behind /api/marketing.
 */
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../../src/elements/loyalty-launcher/index.ts';
import type { LoyaltyLauncher } from '../../../src/elements/loyalty-launcher/index.ts';
import type { CampaignCarousel } from '../../../src/elements/campaign-carousel/index.ts';
import type { CouponClaim } from '../../../src/elements/coupon-claim/index.ts';
import type { LoyaltySigninButton } from '../../../src/elements/loyalty-signin-button/index.ts';
import { claimedCampaigns } from '../../../src/elements/loyalty-launcher/claimed-coupons.ts';
import { session } from '../../../src/connect/session.ts';
import { clearStoredClaims, testShopper } from '../marketing/helpers.ts';
import { hostileEnv, resetSession, setScenario } from '../signin/helpers.ts';
import { pressForReal } from '../engine.ts';
import { part, parts, showsOneOf } from '../parts.ts';
import { contentOf, deepActive, dialogOf, inPanel, launcherButton, recordEvents, waitOpen } from './helpers.ts';

async function aLauncher(attributes = ''): Promise<LoyaltyLauncher> {
  const holder = await fixture<HTMLDivElement>(
    html`<div>
      <button id="before" type="button">Before</button>
      <div .innerHTML=${`<loyalty-launcher ${attributes}></loyalty-launcher>`}></div>
    </div>`,
  );
  const launcher = holder.querySelector('loyalty-launcher')!;
  await launcher.updateComplete;
  return launcher;
}

function pin(name: string, content: string): void {
  document.head.append(Object.assign(document.createElement('meta'), { name, content }));
}

describe('<loyalty-launcher>', () => {
  afterEach(() => {
    resetSession();
    clearStoredClaims();
    sessionStorage.removeItem('loyalty-widgets:launcher-coupons');
    for (const meta of document.head.querySelectorAll('meta[name^="loyalty-"]')) meta.remove();
    if (location.hash) history.replaceState(null, '', location.pathname + location.search);
  });

  it('floats in its corner, labelled, without taking any room in the page', async () => {
    const launcher = await aLauncher();
    const button = launcherButton(launcher);
    expect(button.tagName).to.equal('BUTTON');
    expect(part(launcher, 'label')!.textContent).to.equal('Rewards');
    expect(button.getAttribute('aria-haspopup')).to.equal('dialog');
    expect(button.getAttribute('aria-expanded')).to.equal('false');
    expect(getComputedStyle(launcher).position).to.equal('fixed');
    const box = button.getBoundingClientRect();
    expect(Math.round(innerWidth - box.right), 'at the inline end').to.be.within(8, 24);
    expect(Math.round(innerHeight - box.bottom), 'at the bottom').to.be.within(8, 24);
    expect(dialogOf(launcher), 'no panel before intent').to.equal(null);
    await expect(launcher).to.be.accessible();
  });

  it('takes its corner, offset, label and icon from attributes, and names a bad corner or offset', async () => {
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (message: string) => warnings.push(message);
    try {
      const launcher = await aLauncher('corner="top-start" offset="40px 24px" label="Club" icon="star"');
      const box = launcherButton(launcher).getBoundingClientRect();
      expect(Math.round(box.top)).to.equal(40);
      expect(Math.round(box.left)).to.equal(24);
      expect(part(launcher, 'label')!.textContent).to.equal('Club');
      expect(part(launcher, 'icon')!.dataset.icon).to.equal('star');
      launcher.setAttribute('offset', 'calc(');
      launcher.setAttribute('corner', 'middle');
      expect(warnings.join('\n')).to.contain('offset="calc(" is not one or two CSS lengths');
      expect(warnings.join('\n')).to.contain('corner="middle" is not one of');
    } finally {
      console.warn = warn;
    }
  });

  it('gives the page scroll padding on its side, at zero specificity, and takes it back when it leaves', async () => {
    const root = document.documentElement;
    const padding = (side: 'Top' | 'Bottom') => getComputedStyle(root)[`scrollPadding${side}`];
    const launcher = await aLauncher();
    const button = launcherButton(launcher);
    await waitUntil(() => padding('Bottom') !== 'auto', 'the padding at the bottom');
    let box = button.getBoundingClientRect();
    // The button's height and its distance from the edge, twice: what is scrolled into view rests above it.
    expect(parseFloat(padding('Bottom'))).to.be.closeTo(box.height + 2 * (root.clientHeight - box.bottom), 1);
    launcher.setAttribute('corner', 'top-start');
    box = button.getBoundingClientRect();
    expect(padding('Bottom')).to.equal('auto');
    expect(parseFloat(padding('Top'))).to.be.closeTo(box.height + 2 * box.top, 1);
    const own = Object.assign(document.createElement('style'), { textContent: 'html { scroll-padding-top: 7px }' });
    document.head.append(own);
    try {
      expect(padding('Top'), 'the page’s own rule wins').to.equal('7px');
    } finally {
      own.remove();
    }
    launcher.remove();
    expect(padding('Top')).to.equal('auto');
  });

  it('loads its panel on intent (pointer or focus), before any press', async () => {
    const launcher = await aLauncher();
    launcherButton(launcher).focus();
    await waitUntil(() => dialogOf(launcher), 'focus did not load the panel', { timeout: 8000 });
    expect(dialogOf(launcher)!.open).to.equal(false);
    expect(launcher.opened).to.equal(false);
  });

  it('opens from the keyboard, moves focus into the panel, and Escape closes it with focus back on the button', async () => {
    const launcher = await aLauncher();
    const events = recordEvents(launcher);
    await pressForReal(launcherButton(launcher));
    await waitOpen(launcher);
    expect(launcherButton(launcher).getAttribute('aria-expanded')).to.equal('true');
    expect(dialogOf(launcher)!.getAttribute('aria-label')).to.equal('Rewards');
    await waitUntil(() => deepActive() === inPanel(launcher, '[part~="close-button"]'), 'focus is not in the panel');

    await sendKeys({ press: 'Escape' });
    await waitOpen(launcher, false);
    expect(deepActive(), 'focus back on the launcher').to.equal(launcherButton(launcher));
    expect(launcherButton(launcher).getAttribute('aria-expanded')).to.equal('false');
    expect(events.seen).to.deep.equal([
      'loyalty-launcher-open:{"trigger":"button","modal":false}',
      'loyalty-launcher-close:{"reason":"escape"}',
    ]);
    events.stop();
  });

  it('tells which part of the panel the keyboard moves into', async () => {
    const launcher = await aLauncher();
    await pressForReal(launcherButton(launcher));
    await waitOpen(launcher);
    await waitUntil(() => deepActive() === inPanel(launcher, '[part~="close-button"]'), 'focus is not in the panel');
    const events = recordEvents(launcher);
    await sendKeys({ press: 'Tab' });
    await waitUntil(() => events.seen.length > 0, 'no part reported');
    expect(events.seen).to.deep.equal(['loyalty-launcher-section:{"section":"account","previous":null}']);
    events.stop();
    await launcher.close();
  });

  it('closes from its close button and from the launcher pressed again, focus back on the launcher each time', async () => {
    const launcher = await aLauncher();
    const events = recordEvents(launcher);
    await pressForReal(launcherButton(launcher));
    await waitOpen(launcher);
    await waitUntil(() => deepActive() === inPanel(launcher, '[part~="close-button"]'), 'focus is not in the panel');
    await sendKeys({ press: 'Enter' });
    await waitOpen(launcher, false);
    expect(deepActive()).to.equal(launcherButton(launcher));

    await sendKeys({ press: 'Enter' });
    await waitOpen(launcher);
    launcherButton(launcher).click();
    await waitOpen(launcher, false);
    expect(deepActive()).to.equal(launcherButton(launcher));
    expect(events.seen.filter((seen) => seen.startsWith('loyalty-launcher-close'))).to.deep.equal([
      'loyalty-launcher-close:{"reason":"close-button"}',
      'loyalty-launcher-close:{"reason":"button"}',
    ]);
    events.stop();
  });

  it('wide, the panel is not modal: the page stays usable', async () => {
    const launcher = await aLauncher();
    await launcher.open();
    await waitOpen(launcher);
    expect(dialogOf(launcher)!.matches(':modal')).to.equal(false);
    const before = document.getElementById('before')!;
    before.focus();
    expect(document.activeElement).to.equal(before);
  });

  it('opens on its fragment, tells which part the shopper moves to, and drops the fragment when closed', async () => {
    const launcher = await aLauncher('fragment="rewards"');
    const events = recordEvents(launcher);
    location.hash = 'rewards';
    await waitOpen(launcher);
    inPanel(launcher, '[data-section="campaigns"]')!.dispatchEvent(
      new Event('pointerdown', { bubbles: true, composed: true }),
    );
    inPanel(launcher, '[data-section="account"]')!.dispatchEvent(
      new Event('pointerdown', { bubbles: true, composed: true }),
    );
    await launcher.close();
    expect(location.hash).to.equal('');
    expect(deepActive(), 'focus on the launcher, though nothing had focus before').to.equal(launcherButton(launcher));
    expect(events.seen).to.deep.equal([
      'loyalty-launcher-open:{"trigger":"link","modal":false}',
      'loyalty-launcher-section:{"section":"campaigns","previous":null}',
      'loyalty-launcher-section:{"section":"account","previous":"campaigns"}',
      'loyalty-launcher-close:{"reason":"script"}',
    ]);
    events.stop();
  });

  it('signed out, shows the sign-in and the offers; signed in, the account, offers with coupons, the coupons got and the partners', async () => {
    const launcher = await aLauncher();
    await launcher.open();
    await waitOpen(launcher);
    const sections = () =>
      [...contentOf(launcher).shadowRoot!.querySelectorAll<HTMLElement>('[data-section]')].map(
        (s) => s.dataset.section,
      );
    expect(sections()).to.deep.equal(['account', 'campaigns']);
    expect(inPanel(launcher, 'loyalty-signin-button')).to.exist;
    expect(inPanel(launcher, 'campaign-carousel')!.hasAttribute('claim')).to.equal(false);
    session.set(testShopper('launcher-1'), 'signin');
    await contentOf(launcher).updateComplete;
    expect(sections()).to.deep.equal(['account', 'campaigns', 'coupons', 'partners']);
    expect(inPanel(launcher, 'campaign-carousel')!.hasAttribute('claim')).to.equal(true);
    expect(inPanel(launcher, 'business-directory')).to.exist;
  });

  it('signs the shopper in from inside the panel', async () => {
    await setScenario('valid');
    const env = await hostileEnv();
    pin('loyalty-authority', env.url);
    pin('loyalty-client-id', env.clientId);
    pin('loyalty-redirect-uri', env.redirectUri);
    const launcher = await aLauncher();
    await launcher.open();
    await waitOpen(launcher);
    const signin = inPanel<LoyaltySigninButton>(launcher, 'loyalty-signin-button')!;
    await signin.updateComplete;
    const signedIn = new Promise<CustomEvent>((resolve) =>
      document.addEventListener('loyalty-signin', (event) => resolve(event), { once: true }),
    );
    await pressForReal(part(signin, 'button')!);
    expect((await signedIn).detail.reason).to.equal('signin');
    await contentOf(launcher).updateComplete;
    expect(inPanel(launcher, '#account-title')!.textContent).to.equal('Your account');
    expect(part(signin, 'signout'), 'the panel shows who is signed in, with sign-out').to.exist;
    expect(launcher.opened, 'the panel stays open').to.equal(true);
  });

  it('lists a coupon claimed from the panel with its code, and forgets it at sign-out', async () => {
    session.set(testShopper('launcher-2'), 'signin');
    const launcher = await aLauncher();
    await launcher.open();
    await waitOpen(launcher);
    const carousel = inPanel<CampaignCarousel>(launcher, 'campaign-carousel')!;
    await showsOneOf(carousel, ['slide', 'error']);
    await waitUntil(() => carousel.shadowRoot!.querySelector('coupon-claim'), 'no coupon campaign in the carousel', {
      timeout: 8000,
    });
    const claim = carousel.shadowRoot!.querySelector<CouponClaim>('coupon-claim')!;
    await showsOneOf(claim, ['claim-button', 'error']);
    part(claim, 'claim-button')!.click();
    await waitUntil(() => part(claim, 'code') ?? part(claim, 'error'), 'no code', { timeout: 8000 });
    const code = part(claim, 'code')!.textContent;

    await waitUntil(() => inPanel(launcher, '[part~="coupon-list"] coupon-claim'), 'the coupon is not listed');
    const listed = inPanel<CouponClaim>(launcher, '[part~="coupon-list"] coupon-claim')!;
    expect(listed.campaignId).to.equal(claim.campaignId);
    await showsOneOf(listed, ['code', 'error']);
    expect(part(listed, 'code')!.textContent, 'the same code, with its copy button').to.equal(code);
    expect(part(listed, 'copy-button')).to.exist;
    expect(claimedCampaigns()).to.deep.equal([claim.campaignId]);

    const signin = inPanel<LoyaltySigninButton>(launcher, 'loyalty-signin-button')!;
    await signin.updateComplete;
    part(signin, 'signout')!.click();
    await contentOf(launcher).updateComplete;
    expect(inPanel(launcher, '[part~="coupon-list"]'), 'no list signed out').to.equal(null);
    expect(claimedCampaigns()).to.deep.equal([]);
    expect(sessionStorage.getItem('loyalty-widgets:launcher-coupons')).to.equal(null);

    session.set(testShopper('launcher-3'), 'signin');
    await contentOf(launcher).updateComplete;
    expect(parts(contentOf(launcher), 'coupon-list'), 'the next shopper sees none of it').to.deep.equal([]);
    expect(inPanel(launcher, '[data-section="coupons"] .note'), 'but says where coupons will be').to.exist;
  });

  it('lists a coupon any element of the page claims, even before its panel loads, and forgets it when the session ends', async () => {
    session.set(testShopper('launcher-4'), 'signin');
    const launcher = await aLauncher();
    const elsewhere = document.createElement('div');
    document.body.append(elsewhere);
    elsewhere.dispatchEvent(
      new CustomEvent('coupon-claimed', {
        bubbles: true,
        composed: true,
        detail: { campaignId: 'camp-harbor-morning-latte', code: 'ABC' },
      }),
    );
    elsewhere.remove();
    expect(claimedCampaigns()).to.deep.equal(['camp-harbor-morning-latte']);
    await launcher.open();
    await waitOpen(launcher);
    expect(inPanel<CouponClaim>(launcher, '[part~="coupon-list"] coupon-claim')!.campaignId).to.equal(
      'camp-harbor-morning-latte',
    );
    session.set(null, 'expired');
    await contentOf(launcher).updateComplete;
    expect(claimedCampaigns(), 'gone with the session').to.deep.equal([]);
    expect(sessionStorage.getItem('loyalty-widgets:launcher-coupons')).to.equal(null);
  });
});

describe('<loyalty-launcher> on a phone (a page 390px wide, with the script tag)', () => {
  let frame: HTMLIFrameElement;
  afterEach(() => frame?.remove());

  async function phonePage(width = 390, page = 'launcher-page'): Promise<{ win: Window; launcher: LoyaltyLauncher }> {
    frame = Object.assign(document.createElement('iframe'), {
      src: `/test/browser/fixtures/${page}.html?width=${width}`,
      title: 'shop',
    });
    frame.style.cssText = `inline-size: ${width}px; block-size: 700px; border: 0`;
    document.body.append(frame);
    await waitUntil(
      () => frame.contentWindow?.customElements.get('loyalty-launcher'),
      'the script tag did not load it',
      {
        timeout: 10_000,
      },
    );
    const win = frame.contentWindow!;
    await waitUntil(() => win.document.querySelector('loyalty-launcher'), 'no launcher in the page');
    const launcher = win.document.querySelector('loyalty-launcher') as LoyaltyLauncher;
    await launcher.updateComplete;
    return { win, launcher };
  }

  it('opens as a modal sheet covering the screen, the page behind inert, and closes back to the launcher', async () => {
    const { win, launcher } = await phonePage();
    await launcher.open('button');
    await waitOpen(launcher);
    const dialog = dialogOf(launcher)!;
    expect(dialog.matches(':modal')).to.equal(true);
    const box = dialog.getBoundingClientRect();
    expect([box.left, box.top, Math.round(box.width), Math.round(box.height)]).to.deep.equal([0, 0, 390, 700]);
    const control = win.document.getElementById('page-control')!;
    control.focus();
    expect(win.document.activeElement, 'the page behind cannot take focus').not.to.equal(control);
    expect(win.document.elementFromPoint(20, 20)).to.equal(launcher);
    await launcher.close('escape');
    control.focus();
    expect(win.document.activeElement, 'usable again once closed').to.equal(control);
  });

  it('a link to #loyalty opens it', async () => {
    const { win, launcher } = await phonePage();
    (win.document.getElementById('rewards-link') as HTMLAnchorElement).click();
    await waitOpen(launcher);
    expect(dialogOf(launcher)!.matches(':modal')).to.equal(true);
  });

  it('a CMS mount becomes the launcher, with its own attributes only, floating where the mount says', async () => {
    const { win, launcher } = await phonePage(390, 'launcher-mount');
    expect(launcher.parentElement!.getAttribute('data-loyalty-widget')).to.equal('loyalty-launcher');
    expect(launcher.getAttribute('corner')).to.equal('bottom-start');
    expect(launcher.hasAttribute('onclick'), 'not its attribute: left out').to.equal(false);
    await waitUntil(() => part(launcher, 'label')!.textContent === 'Club');
    const box = part(launcher, 'button')!.getBoundingClientRect();
    expect(Math.round(box.left)).to.be.within(8, 24);
    expect(Math.round(win.innerHeight - box.bottom)).to.be.within(8, 24);
  });
});
