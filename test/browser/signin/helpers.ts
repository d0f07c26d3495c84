import { fixture, html } from '@open-wc/testing';
import '../../../src/elements/loyalty-signin-button/index.ts';
import type { LoyaltySigninButton } from '../../../src/elements/loyalty-signin-button/index.ts';
import { session } from '../../../src/connect/session.ts';
import { pressForReal } from '../engine.ts';
import type { HostileStats } from '../../support/hostile-provider.ts';
import type { Scenario } from '../../support/hostile-scenarios.ts';
import { part } from '../parts.ts';

export interface HostileEnv {
  url: string;
  clientId: string;
  redirectUri: string;
}

let envPromise: Promise<HostileEnv> | undefined;

/** Where the hostile provider runs (started by the wtr plugin). */
export function hostileEnv(): Promise<HostileEnv> {
  envPromise ??= fetch('/__hostile.json').then((response) => response.json() as Promise<HostileEnv>);
  return envPromise;
}

/** Makes the provider answer the next sign-ins with this scenario; `reset` also restores its keys and counters. */
export async function setScenario(scenario: Scenario, reset = true): Promise<void> {
  const env = await hostileEnv();
  const response = await fetch(`${env.url}/__hostile/scenario`, {
    method: 'POST',
    body: JSON.stringify({ scenario, reset }),
  });
  if (!response.ok) throw new Error(await response.text());
}

export async function hostileStats(): Promise<HostileStats> {
  const env = await hostileEnv();
  return (await fetch(`${env.url}/__hostile/stats`)).json() as Promise<HostileStats>;
}

/** A sign-in button wired to the hostile provider. */
export async function hostileButton(extra: { scope?: string; lang?: string } = {}): Promise<LoyaltySigninButton> {
  const env = await hostileEnv();
  return fixture<LoyaltySigninButton>(html`<loyalty-signin-button
    authority=${env.url}
    client-id=${env.clientId}
    redirect-uri=${env.redirectUri}
    scope=${extra.scope ?? 'openid profile'}
    lang=${extra.lang ?? 'en'}
  ></loyalty-signin-button>`);
}

/** The first of these events the element sends. */
export function nextEvent<T = unknown>(target: EventTarget, names: string[]): Promise<CustomEvent<T>> {
  return new Promise((resolve) => {
    const handler = (event: Event): void => {
      for (const name of names) target.removeEventListener(name, handler);
      resolve(event as CustomEvent<T>);
    };
    for (const name of names) target.addEventListener(name, handler);
  });
}

/**
 * Presses the sign-in button as a shopper does (a real key press, so the popup opens with the
 * press's user activation under every engine's popup blocker).
 */
export async function pressSignIn(button: LoyaltySigninButton): Promise<void> {
  await button.updateComplete;
  await pressForReal(part(button, 'button')!);
}

/** Runs one sign-in to its end and returns the event that ended it. */
export async function signInOnce(
  button: LoyaltySigninButton,
): Promise<CustomEvent<{ code?: string; message?: string; user?: unknown; profile?: boolean }>> {
  const outcome = nextEvent<{ code?: string; message?: string; user?: unknown; profile?: boolean }>(button, [
    'loyalty-signin',
    'loyalty-signin-error',
  ]);
  await pressSignIn(button);
  return outcome;
}

/** Forgets any session and pending request between tests. */
export function resetSession(): void {
  session.set(null, 'signout');
  for (const storage of [sessionStorage, localStorage]) {
    for (const key of Object.keys(storage)) if (key.startsWith('loyalty-widgets:')) storage.removeItem(key);
  }
}
