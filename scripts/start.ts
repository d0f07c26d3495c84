/** `npm start`: the sandbox and the demo merchant site, with their addresses printed. */
import { startStack } from './stack.ts';

const stack = await startStack();
const users = 'demo / demo (more in the README)';
console.log(`
  loyalty-widgets is running

  Demo merchant site   ${stack.demoUrl}
  Marketing proxy      ${stack.demoUrl}api/marketing
  Connect (sandbox)    ${stack.connectUrl}
  Marketing (sandbox)  ${stack.marketingUrl}
  Demo app client_id   ${stack.sandbox.demoApp.app_id}
  Wallet users         ${users}

  Press Ctrl+C to stop.
`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) process.exit(1);
    stopping = true;
    void stack.close().then(() => process.exit(0));
  });
}
