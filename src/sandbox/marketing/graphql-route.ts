/** What both Marketing flavours' /graphql share: never cached, and bodies over a limit refused unread. */
import type { Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';

export const MAX_GRAPHQL_BODY_BYTES = 100 * 1024;

/**
 * Adds `Cache-Control: no-store` to every /graphql answer and refuses a body over
 * MAX_GRAPHQL_BODY_BYTES with `tooLarge`, each flavour in its own words.
 *
 * @example
 * guardGraphqlRoute(app, (c) => c.json({ errors: [{ message: 'Too large' }] }, 413));
 */
export function guardGraphqlRoute(app: Hono, tooLarge: (c: Context) => Response): void {
  app.use('/graphql', async (c, next) => {
    c.header('Cache-Control', 'no-store');
    await next();
  });
  app.use('/graphql', bodyLimit({ maxSize: MAX_GRAPHQL_BODY_BYTES, onError: tooLarge }));
}
