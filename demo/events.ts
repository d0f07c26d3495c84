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
