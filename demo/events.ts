const names = [
  'loyalty-signin',
  'loyalty-signout',
  'loyalty-signin-error',
  'campaign-select',
  'coupon-claimed',
  'coupon-claim-error',
];
const log = document.getElementById('event-log');

for (const name of names) {
  document.addEventListener(name, (event) => {
    const detail = (event as CustomEvent).detail as unknown;
    const line = `${new Date().toLocaleTimeString()}  ${name}  ${JSON.stringify(detail, redactToken)}\n`;
    log?.append(document.createTextNode(line));
  });
}

/** Tokens are secrets of the shopper's: the log shows that one is there, not what it is. */
function redactToken(key: string, value: unknown): unknown {
  return (key === 'accessToken' || key === 'idToken') && typeof value === 'string' ? `${value.slice(0, 4)}…` : value;
}

/**
 * What a merchant's page does to reward a shopper: post both tokens of the sign-in to its own server,
 * which verifies them (demo/rewards-server.ts). The loyalty ID the page shows is never what is rewarded.
 */
document.getElementById('reward')?.addEventListener('click', async () => {
  const user = document.querySelector('loyalty-signin-button')?.user;
  const write = (text: string) =>
    log?.append(document.createTextNode(`${new Date().toLocaleTimeString()}  rewards  ${text}\n`));
  if (!user) return write('sign in first');
  try {
    const response = await fetch('/api/rewards', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ idToken: user.idToken, accessToken: user.accessToken }),
    });
    write(`${response.status} ${JSON.stringify(await response.json())}`);
  } catch {
    write('the rewards endpoint could not be reached');
  }
});
